export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
}

export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
}

export interface CreateMessageRequest extends JSONRPCRequest {
  method: "sampling/createMessage";
}

/** A request and a notification may share a method's name: they are told apart by the id. */
export interface CreateMessageNotification extends JSONRPCNotification {
  method: "sampling/createMessage";
}

/** Not a request: its method member is a method's name in a result. */
export interface MethodInfo {
  method: "sampling/createMessage";
}
