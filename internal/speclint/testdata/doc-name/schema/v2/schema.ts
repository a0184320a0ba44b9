/**
 * A thing, unlike a {@link Missing} one; see `GoneRequest` and `Thing`, and {@link Thing.name},
 * {@link https://example.com | the site}.
 */
export interface Thing {
  name: string;
}

export interface ResourceTemplateReference {
  type: "ref/resource";
  uri: string;
}

/** Replaces {@link PingRequest}. */
export interface CallToolRequest {
  method: "tools/call";
}
