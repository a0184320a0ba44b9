export interface CreateMessageRequest {
  method: "sampling/createMessage";
  params: { maxTokens: number };
}

/** The same request, as sent inside a result: a second declaration of the method. */
export interface SamplingInputRequest {
  method: "sampling/createMessage";
  params: { maxTokens: number; extra?: string };
}

export interface ChangedNotification {
  method: "notifications/changed";
}

export interface ListChangedNotification {
  method: "notifications/changed";
  params?: { list?: string };
}
