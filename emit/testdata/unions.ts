/* Unions, one per strategy. */

/** Closed. */
export type Role = "user" | "assistant";

/** Open. */
export type StopReason = "endTurn" | "max-tokens" | "date-time" | string;

export type JSONValue =
  string | number | boolean | null | JSONObject | JSONArray;
export type JSONObject = { [key: string]: JSONValue };
export type JSONArray = JSONValue[];

export type RequestId = string | number;

export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** Content, discriminated by `type`. */
export type ContentBlock = TextContent | ImageContent;

export interface TextResourceContents {
  uri: string;
  text: string;
}

export interface BlobResourceContents {
  uri: string;
  blob: string;
}

export interface FormParams {
  mode?: "form";
  message: string;
}

export interface URLParams {
  mode: "url";
  url: string;
}

export type Params = FormParams | URLParams;

export interface StringSchema {
  type: "string";
  title?: string;
}

export interface EnumSchema {
  type: "string";
  enum: string[];
}

export interface NumberSchema {
  type: "number" | "integer";
}

export type PrimitiveSchema = StringSchema | EnumSchema | NumberSchema;

export interface Holder {
  content: ContentBlock[];
  single?: ContentBlock;
  contents: (TextResourceContents | BlobResourceContents)[];
  id: RequestId;
  progress?: RequestId;
  value: string | number | boolean | null | string[];
  sample: ContentBlock | ContentBlock[];
  many?: TextContent | TextContent[];
  ttl: number | null;
  format?: "email" | "uri";
  structured?: JSONValue;
  shape: { kind: "circle"; radius: number } | { kind: "square"; side: number };
  answers?: { [key: string]: string | number | JSONObject };
}

export interface PingRequest {
  method: "ping";
}

export interface ListRequest {
  method: "items/list";
}

export interface ListResult {
  items: string[];
}

export interface InputRequiredResult {
  inputRequests?: { [key: string]: string };
}

export interface ListResultResponse {
  result: ListResult | InputRequiredResult;
}

export interface CancelledNotification {
  method: "notifications/cancelled";
}

export type EmptyResult = Result;
export interface Result {
  _meta?: { [key: string]: unknown };
}

/** @internal */
export type ServerResult = EmptyResult | ListResult | InputRequiredResult;

export type ClientRequest = PingRequest | ListRequest;

/* Discriminator values that need escaping in JSON or in Go. */
export interface Angle {
  kind: "a<b";
  x: string;
}
export interface Tick {
  kind: "c`d";
  y: string;
}
export type Odd = Angle | Tick;
