/* JSDoc tags. */

/**
 * A description with **Markdown**, a {@link TextContent} link and a
 * {@link ImageContent | labelled link}.
 *
 *   - an indented list item
 *
 * @see {@link https://www.jsonrpc.org/specification | JSON-RPC 2.0}
 * @see [General fields](/specification/draft/basic/index#meta) for more details.
 * @example First example
 * {@includeCode ./examples/Sampling/first.json}
 *
 * @example Second example
 * {@includeCode ./examples/Sampling/second.json}
 *
 * @deprecated Deprecated as of protocol version 2026-07-28.
 * Remains in the specification for a while.
 *
 * @category `sampling/createMessage`
 */
export interface Sampling {
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  temperature?: number;
  /**
   * Integer by default.
   */
  maxTokens: number;
  /**
   * The tag reaches numbers inside unions and arrays.
   * @TJS-type number
   */
  weights: (number | null)[];
  /** @format uri */
  uri: string;
  /**
   * @minItems 1
   * @maxItems 100
   */
  values: string[];
  /**
   * Numbers of nested members follow their own docs.
   * @TJS-type number
   */
  nested: {
    count: number;
    /** @TJS-type number */
    ratio: number;
  };
  /**
   * Actual retention duration, null for unlimited.
   * @nullable
   */
  ttl: number | null;
  /** @deprecated */
  old?: string;
}

/** @internal */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";

/**
 * The doc reaches the declaration through line comments.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Empty {}

/** Only the last JSDoc comment counts. */
/**
 * @internal
 * @category Common Types
 */
/* A plain block comment is not a JSDoc comment. */
type NotExported = { a: TextContent; b: ImageContent };

export interface TextContent {
  text: string;
}

export interface ImageContent {
  data: string;
}
