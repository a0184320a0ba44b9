/**
 * A thing: see `Thing`, {@link Thing.name} and {@link https://example.com | the site}.
 */
export interface Thing {
  name: string;
}

export interface ResourceTemplateReference {
  type: "ref/resource";
  uri: string;
}

/** The call, see {@link CallToolRequest | tools/call}. */
export interface CallToolRequest {
  method: "tools/call";
}
