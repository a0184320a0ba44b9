export type Role = "user" | "assistant";

export interface TextContent {
  type: "text";
  text: string;
}

export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: { [key: string]: unknown };
}

export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: TextContent[];
}

export type SamplingContent = TextContent | ToolUseContent | ToolResultContent;

export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
}

export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  temperature?: number;
  /**
   * @maxItems 2
   */
  stopSequences?: string[];
}

export interface CreateMessageResult extends SamplingMessage {
  model: string;
}

export type ResultType = "complete" | "input_required" | string;

export interface Result {
  resultType: ResultType;
  [key: string]: unknown;
}

export interface InputRequiredResult extends Result {
  inputRequests: { [key: string]: unknown };
  requestState?: string;
}

export interface ReadResult extends Result {
  contents: string[];
  /**
   * @format uri
   */
  uri: string;
}

export interface ReadResultResponse {
  result: ReadResult | InputRequiredResult;
}

/**
 * A thing with value rules.
 *
 * @example A thing
 * {@includeCode ./examples/Thing/thing.json}
 */
export interface Thing {
  /**
   * @format date-time
   */
  at: string;
  /**
   * @minLength 2
   * @maxLength 4
   * @pattern ^[a-z]+$
   */
  code: string;
  kind?: "a" | "b";
}
