export interface Request {
  method: string;
  params?: { [key: string]: unknown };
}

/** Makes params required over an optional one: the refinement derived types make. */
export interface CallRequest extends Request {
  method: "call";
  params: { name: string };
}

export interface Error {
  code: number;
  message: string;
  data?: unknown;
}

export type ParseError = Error & {
  code: -32700;
  data: { line: number };
};

export interface Response {
  id: string;
  error: Error;
}

/** Omits error, then declares it optional: nothing required is made optional. */
export interface MaybeErrorResponse extends Omit<Response, "error"> {
  error?: ParseError;
}
