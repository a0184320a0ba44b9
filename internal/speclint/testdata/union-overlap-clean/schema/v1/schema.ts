export interface A {
  type: "a";
  x: string;
}

export interface B {
  type: "b";
  y: string;
}

/** Told apart by type. */
export type Block = A | B;

export interface TextResource {
  uri: string;
  text: string;
}

export interface BlobResource {
  uri: string;
  blob: string;
}

/** Told apart by their required members. */
export type Resource = TextResource | BlobResource;

export interface Plain {
  type: "string";
  enum: string[];
}

export interface Named {
  type: "string";
  enum: string[];
  enumNames?: string[];
}

/** Named accepts every Plain, but requires as much: a Plain missing a member is no Named. */
export type EnumSchema = Plain | Named;

export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** A request has every member of a notification: intended. */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification;

export interface PingRequest extends JSONRPCRequest {
  method: "ping";
}

export interface ListRequest extends JSONRPCRequest {
  method: "list";
  params?: { cursor?: string };
}

export type ClientRequest = PingRequest | ListRequest;

export interface Result {
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

export interface ListResult extends Result {
  items: string[];
}

/** An empty result accepts every result: told apart by the request they answer. */
export type ClientResult = Result | ListResult;
export type ServerResult = Result;
