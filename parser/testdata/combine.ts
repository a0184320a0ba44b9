/* Omit, intersections, typeof. */

export const JSONRPC_VERSION = "2.0";
/** A negative error code. */
export const HEADER_MISMATCH = -32020;
export const RATIO = 0.5;
export const ENABLED = true;

export interface Error {
  /** The error type that occurred. */
  code: number;
  message: string;
  data?: unknown;
}

export interface ErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: string | number;
  error: Error;
}

/** Omit then redeclare: `error` moves to the end. */
export interface HeaderMismatchError extends Omit<
  ErrorResponse,
  "error"
> {
  error: Error & {
    code: typeof HEADER_MISMATCH;
  };
}

/** Omit of several names, in a type position. */
export type OnlyJSONRPC = Omit<ErrorResponse, "id" | "error">;

export interface Task {
  taskId: string;
  ttl: number | null;
}

/** An intersection of two declarations. */
export type TaskResult = ErrorResponse & Task;

/** An alias of an alias is kept as a reference. */
export type Alias = TaskResult;

/** Extends an alias of an intersection. */
export interface FromAlias extends Alias {
  more: typeof RATIO;
}

export type Flag = typeof ENABLED;

export interface Loose {
  /** Loose's a. */
  a?: string;
  b?: string;
  c?: number;
}

/**
 * A member is required if any part of the intersection requires it; the later part gives its
 * type, doc and position.
 */
export type Intersected = { a: string; b: number; d?: boolean } & Loose & { d?: boolean };
