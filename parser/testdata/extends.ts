/* Inheritance: multiple and chained extends, overrides, index signatures. */

/** A base. */
export interface Base {
  /** The kind. */
  kind: string;
  /** Base's id. */
  id?: number;
}

export interface Named {
  name: string;
  /** Named's id. */
  id: string;
}

/** Multiple extends: Base's members, then Named's; Named's `id` wins in Base's place. */
export interface Both extends Base, Named {
  extra: boolean;
}

/** Chained: overrides `kind` without a doc, so Base's doc stays. */
export interface Chained extends Both {
  kind: "chained";
  /** Own doc replaces the inherited one. */
  name: "fixed";
}

/** Used before its declaration. */
export interface Early extends Late {}

export interface Late {
  late: null;
}

export type MetaObject = Record<string, unknown>;

/** Extends a Map: an Object with Rest. */
export interface RequestMeta extends MetaObject {
  progressToken?: string | number;
}

/** Only an index signature: a Map. */
export interface Headers {
  [name: string]: string;
}

/** Named members and an index signature: an Object with Rest. */
export interface Open {
  a: string;
  [key: string]: unknown;
}

/** Extends an Object with Rest and adds an index signature of its own. */
export interface Reopened extends Open {
  [key: string]: string;
}

export interface Empty {}
