export interface OldThing {
  name: string;
}

export interface ResourceReference {
  type: "ref/resource";
  uri: string;
}

export interface PingRequest {
  method: "ping";
}

export interface ListRequest {
  method: "list";
}

export interface GetRequest {
  method: "get";
}
