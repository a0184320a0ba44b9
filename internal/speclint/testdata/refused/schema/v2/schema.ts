/** A union that no decoder can decide: a constant among other kinds. */
export type U = string | "x" | number;

export interface Holder {
  u: U;
}
