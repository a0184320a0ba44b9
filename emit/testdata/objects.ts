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

/** A struct of more members than one word of bits: 64 optional ones, then a required one. */
export interface Wide {
  m0?: number; m1?: number; m2?: number; m3?: number; m4?: number; m5?: number; m6?: number; m7?: number; m8?: number; m9?: number; m10?: number; m11?: number; m12?: number; m13?: number; m14?: number; m15?: number; m16?: number; m17?: number; m18?: number; m19?: number; m20?: number; m21?: number; m22?: number; m23?: number; m24?: number; m25?: number; m26?: number; m27?: number; m28?: number; m29?: number; m30?: number; m31?: number; m32?: number; m33?: number; m34?: number; m35?: number; m36?: number; m37?: number; m38?: number; m39?: number; m40?: number; m41?: number; m42?: number; m43?: number; m44?: number; m45?: number; m46?: number; m47?: number; m48?: number; m49?: number; m50?: number; m51?: number; m52?: number; m53?: number; m54?: number; m55?: number; m56?: number; m57?: number; m58?: number; m59?: number; m60?: number; m61?: number; m62?: number; m63?: number;
  last: string;
}
