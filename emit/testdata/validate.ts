/* Value rules: one of each kind that Validate checks. */

export const JSONRPC_VERSION = "2.0";
export const INVALID_PARAMS = -32602;

/** Closed. */
export type Role = "user" | "assistant";

/** Open. */
export type StopReason = "endTurn" | "maxTokens" | string;

export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  /** @format byte */
  data: string;
  mimeType: string;
}

export type ContentBlock = TextContent | ImageContent;

/** Bounds, formats and item counts. */
export interface Limits {
  /**
   * An integer.
   *
   * @minimum 0
   */
  ttlMs: number;
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  priority?: number;
  /** @minimum 1 */
  total: number | null;
  /** @maxItems 3 */
  values: string[];
  /** @format uri */
  uri: string;
  /** @format uri-template */
  uriTemplate?: string;
  /**
   * A date-time of RFC 3339, as JSON Schema's format.
   *
   * @format date-time
   */
  when?: string;
  /**
   * A format the runtime does not know is an annotation.
   *
   * @format email
   */
  contact?: string;
}

/** A message holds content and, recursively, messages. */
export interface Message {
  role: Role;
  content: ContentBlock | ContentBlock[];
  stopReason?: StopReason;
  mode?: "auto" | "none";
  replies?: Message[];
  blocks?: { [key: string]: ContentBlock };
  _meta?: { [key: string]: unknown };
}

/** A schema whose type is a constant, as a tool's input schema. */
export interface ObjectSchema {
  type: "object";
  properties?: { [key: string]: object };
  [key: string]: unknown;
}

export interface SampleParams {
  messages: Message[];
  limits?: Limits;
  schema?: ObjectSchema;
}

/** A JSON-RPC request: a problem outside its params makes an invalid request. */
export interface SampleRequest {
  jsonrpc: typeof JSONRPC_VERSION;
  id: string | number;
  method: "sample";
  params: SampleParams;
}

export interface InvalidParamsError {
  code: typeof INVALID_PARAMS;
  message: string;
  retryable?: true;
}

/** A JSON-RPC error response: a problem in its error is not an invalid request. */
export interface ErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: string | number;
  error: InvalidParamsError;
}
