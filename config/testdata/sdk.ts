/* A small schema for the test of an SDK's own shapes (sdk.yaml): optional values with
   omitempty, element and object pointers, an embedded _meta, names and substitutes at depth. */

export interface Result {
  /** Metadata of the result. */
  _meta?: { [key: string]: unknown };
}

/** The result of a tool call. */
export interface CallToolResult extends Result {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
}

/** A result that may be cached. */
export interface CacheableResult extends Result {
  /** How long the result may be cached. @minimum 0 */
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** The result of listing tools. */
export interface ListToolsResult extends CacheableResult {
  tools: Tool[];
  nextCursor?: string;
}

/** A tool the model may call. */
export interface Tool {
  name: string;
  title?: string;
  annotations?: ToolAnnotations;
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
}

export type ContentBlock = TextContent | ImageContent;

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

/** Parameters of a sampling request. */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  /** @TJS-type number */
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  includeContext?: "none" | "thisServer" | "allServers";
  /** @minimum 0 */
  priority?: number;
}

export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
}

export type SamplingContent = TextContent | AudioContent;

export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
}

export type Role = "user" | "assistant";

export interface ModelPreferences {
  /** @TJS-type number */
  costPriority?: number;
  hints: { [key: string]: unknown };
}

/** What a client can do. */
export interface ClientCapabilities {
  sampling?: {
    context?: object;
    tools?: { parallel?: boolean };
  };
  roots?: { listChanged?: boolean };
  elicitation?: { form?: object };
}

/** A client's hello. */
export interface InitializeResult extends Result {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  serverInfo: Implementation;
}

export interface Implementation {
  name: string;
  version: string;
}
