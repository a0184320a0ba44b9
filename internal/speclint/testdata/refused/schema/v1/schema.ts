export interface A {
  a: string
  b: ;
}
