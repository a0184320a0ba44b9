/** Why it stopped: an open enum. */
export type Reason = "done" | "limit" | string;
/** Free-form metadata. */
export type Meta = Record<string, unknown>;
export interface P { type: "p" }
export interface Q { type: "q" }
export interface Z { type: "z" }
export type PQ = P | Q;
/** A union naming a union alias. */
export type U = PQ | Z;
/** An object with other members of any type. */
export interface Open {
  [key: string]: unknown;
  x?: string;
}
/** Open, and a y: the export leaves the index signature out. */
export interface OpenY extends Open {
  y: string;
}
export interface Holder {
  reason?: Reason;
  meta?: Meta;
  p: P;
}
