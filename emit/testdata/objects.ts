/* Objects, members and presence. */

/** The version of the JSON-RPC protocol. */
export const JSONRPC_VERSION = "2.0";
export const PARSE_ERROR = -32700;
export const MAX_ITEMS = 100;
/** Collides with the type Cursor. */
export const CURSOR = "cursor";
export const RATIO = 0.5;
export const ENABLED = true;

/** A parse error. */
export interface ParseError {
  code: typeof PARSE_ERROR;
  message: string;
}

/**
 * A tool the model may call. See {@link Annotations} and
 * {@link Annotations.priority | the priority}; the spec has
 * [more](/specification/draft/server/tools).
 *
 * - `"a"`: first
 * - `"b"`: second
 *
 * @see {@link https://example.com/tools | Tools}
 * @category Tools
 */
export interface Tool {
  /** The name of the tool. */
  name: string;
  title?: string;
  /**
   * The priority, from 0 to 1.
   *
   * @TJS-type number
   */
  temperature?: number;
  maxTokens: number;
  isError?: boolean;
  tags: string[];
  hints?: string[];
  matrix?: number[][];
  headers: { [key: string]: string };
  labels?: Record<string, string[]>;
  input: { [key: string]: unknown };
  data: unknown;
  structuredContent?: unknown;
  annotations?: Annotations;
  _meta?: { [key: string]: unknown };
  "io.modelcontextprotocol/toolUseId"?: string;
  websiteUrl?: string;
  uriTemplate: string;
  /** Where the schema lives. */
  inputSchema: {
    $schema?: string;
    type: "object";
    properties?: { [key: string]: object };
    [key: string]: unknown;
  };
  /** @deprecated Use annotations instead. */
  legacy?: { title?: string; hint: { level: number } };
}

export interface Annotations {
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  priority?: number;
  audience?: ("user" | "assistant")[];
}

/** @internal */
export interface Message {
  jsonrpc: typeof JSONRPC_VERSION;
  code: typeof PARSE_ERROR;
  mode?: "form";
  flag: true;
}

/** An alias: it keeps its name. */
export type EmptyResult = Result;
export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

export type Cursor = string;

export interface Paginated {
  cursor?: Cursor;
  nextCursor: Cursor;
  result?: EmptyResult;
}

/** A map of typed members. */
export interface Counters {
  [key: string]: number;
}

export interface Tagged {
  name: string;
  [key: string]: string;
}

export type Names = string[];

/** @deprecated */
export interface Old {
  /** The inherited member names its inline type after Base. */
  scope: "public" | "private";
}

export interface Derived extends Old {
  suffix?: string;
}

export interface Empty {}
