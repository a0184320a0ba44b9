/* A small schema for the golden test of a configuration (shaped.yaml). */

export const LATEST_PROTOCOL_VERSION = "draft";

/** A request for a tool call. */
export interface CallToolRequest {
  method: "tools/call";
  params: {
    /** The name of the tool. */
    name: string;
    arguments?: { [key: string]: unknown };
    progressToken?: ProgressToken;
  };
}

/** A tool the model may call. */
export interface Tool {
  name: string;
  /** The schema of the tool's input. */
  inputSchema: { type: "object"; [key: string]: unknown };
  /** The schema of the tool's output. */
  outputSchema?: { [key: string]: unknown };
  annotations?: ToolAnnotations;
  /** The MIME type of the tool's icon. */
  iconMimeType?: string;
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
}

/** Hints about a tool. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
}

export interface Result {
  _meta?: { [key: string]: unknown };
}

/** The result of a tool call. */
export interface CallToolResult extends Result {
  content: ContentBlock[];
  isError?: boolean;
}

/** The tools a server has. */
export interface ListToolsResult extends Result {
  tools: Tool[];
}

export type ContentBlock = TextContent | ImageContent;

export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** A token that ties progress notifications to a request. */
export type ProgressToken = string | number;

/** Not referenced by the selection. */
export interface Unrelated {
  tool: Tool;
}
