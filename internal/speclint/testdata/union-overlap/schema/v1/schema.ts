export interface A {
  type: "a";
  x: string;
}

export interface B {
  type: "b";
  y: string;
}

/** A block of any other type: its type accepts any string, so it swallows A and B. */
export interface Anything {
  type: string;
  [key: string]: unknown;
}

export type Block = A | B | Anything;

export interface Left {
  name: string;
  size?: number;
}

export interface Right {
  name: string;
  size?: number;
}

/** Two variants of the same shape: nothing tells them apart. */
export type Twins = Left | Right;

export interface Holder {
  /** An inline union with the same overlap. */
  block: A | Anything;
}

export interface Ask {
  message: string;
  [key: string]: unknown;
}

export interface Tell {
  message: string;
  id: string;
}

/** A union like the JSON-RPC envelopes, whose names do not make it one. */
export type Messages = Tell | Ask;
