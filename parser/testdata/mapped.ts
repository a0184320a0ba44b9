// Forms that real schema files contain beyond the first subset, and how they map.

/** A base. */
export interface Base {
  a: string;
  /** The b. */
  b?: number;
}

/** Declaration merging: the members of both declarations, in order. */
export interface Merged {
  one: string;
}
export interface Merged extends Base {
  two?: boolean;
}
;;

export type Keys = "k1" | "k2";

/** Record with literal keys is an object; with string among them, a map. */
export interface Records {
  closed: Record<"x" | "y", string>;
  viaAlias: Record<Keys, number>;
  open: Record<"x" | string, boolean>;
  never?: Record<never, string>;
}

/**
 * Branded primitives are constraints.
 *
 * @default 0.5
 * @TJS-type number
 */
export type Probability = number & { readonly minimum: 0; readonly maximum: 1 };

export interface Branded {
  p: Probability;
  /**
   * The tag wins over the brand.
   * @maximum 0.5
   */
  q: Probability;
  count: number & { readonly minimum: 1 } & {};
  id: string & { readonly __brand: "Id" };
  open: "a" | "b" | (string & {});
}

/** Absent members and never in unions. */
export interface Absent extends Base {
  b?: never;
  gone?: undefined;
  kept: string | undefined;
  never: "x" | never;
}

export type Picked = Pick<Base, "b">;
export type Optional = Partial<Merged>;
export type Needed = Required<Base>;
export type Frozen = Readonly<Base>;
export type List = ReadonlyArray<Base> | readonly string[];

export declare const DECLARED: "declared";
export const AS_CONST = 0x10 as const;
export const SEPARATED = 1_000, POINT = .5;
export {};
