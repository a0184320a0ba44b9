/* Type expressions. */

/** An alias of a single name stays a reference. */
export type ProgressToken = RequestId;
export type RequestId = string | number;

export type Role = "user" | "assistant";

/** A leading `|` and an open enum. */
export type LoggingLevel =
  | "debug"
  | "info"
  | string;

export type JSONValue =
  string | number | boolean | null | JSONObject | JSONArray;
export type JSONObject = { [key: string]: JSONValue };
export type JSONArray = JSONValue[];

export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  data: string;
}

export type ContentBlock = TextContent | ImageContent;

export interface Shapes {
  "io.modelcontextprotocol/protocolVersion": string;
  $schema?: string;
  'single-quoted': "it's";
  escaped: "a\"b\\c\u00e9";
  oneOrMany: ContentBlock | ContentBlock[];
  parenthesized: (TextContent | ImageContent)[];
  generic: Array<{
    const: string;
    title: string;
  }>;
  nested: string[][];
  record: Record<string, number>;
  inline: { [key: string]: object };
  inlineUnion: { type: "a"; a: string } | { type: "b"; b?: string[] };
  empty: {};
  anything: any;
  unknown: unknown;
  object: object;
  negative: -1;
  float: 2.5e3;
  yes: true,
  no: false
}

export type Batch = (TextContent | ImageContent)[];
