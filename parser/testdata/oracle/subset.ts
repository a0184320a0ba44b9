// Syntax of the subset that the other testdata files do not show.

/**/
/* A block comment, not JSDoc. */ type Plain = string; // a line comment

export const EXPONENT = 1E-3;
export const NEGATIVE_FLOAT = -0.5;
export const SINGLE = 'single';
export const NO = false;

/** Keywords and odd strings as member names, `,` and `;` as separators. */
interface Keywords {
  type: string;
  interface?: number;
  extends: boolean,
  typeof: null;
  const: unknown,
  export: any;
  "": string;
  'with space': object
}

export type Nested = Array<Array<string>>;
export type Maps = Record<string, Record<string, Plain>>;
export type LeadingAnd = & Keywords & { extra: string };
export type ParenUnion = (| "a" | "b")[];
export type Spaced = - 1 | typeof EXPONENT | typeof SINGLE;
export type Deep = ((((string))));
export type Items = { [key: string]: Plain }[];
export interface OnlyIndex { [k: string]: Nested }
export interface Multi extends Omit<Keywords, "type" | 'interface'>, OnlyIndex {}
export type Picked = Omit<Keywords, "const">;
export type Flag = typeof NO | typeof NEGATIVE_FLOAT;
