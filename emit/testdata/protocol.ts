/* A small schema with the protocol layer: message unions, envelopes, responses, error objects. */
export const JSONRPC_VERSION = "2.0";
export const PARSE_ERROR = -32700;
export type RequestId = string | number;
export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}
export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}
export type EmptyResult = Result;
export interface Error {
  code: number;
  message: string;
  data?: unknown;
}
/** The error of a message that is not JSON. */
export interface ParseError extends Error {
  code: typeof PARSE_ERROR;
}
export interface JSONRPCRequest extends Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
}
export interface JSONRPCNotification {
  jsonrpc: typeof JSONRPC_VERSION;
  method: string;
}
export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: Result;
}
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id?: RequestId;
  error: Error;
}
export interface PingRequest extends JSONRPCRequest {
  method: "ping";
}
export interface CancelledNotification extends JSONRPCNotification {
  method: "notifications/cancelled";
  params: { requestId: RequestId; reason?: string };
}
export interface CallToolRequest extends JSONRPCRequest {
  method: "tools/call";
  params: { name: string; arguments?: { [key: string]: unknown } };
}
export interface CallToolResult extends Result {
  content: string[];
  isError?: boolean;
}
export type ClientRequest = PingRequest | CallToolRequest;
export type ServerRequest = PingRequest;
export type ClientNotification = CancelledNotification;
export type ServerNotification = CancelledNotification;
export type ClientResult = EmptyResult;
export type ServerResult = EmptyResult | CallToolResult;
