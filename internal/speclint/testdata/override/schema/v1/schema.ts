export interface Request {
  method: string;
  params: { [key: string]: unknown };
}

/** Makes params optional over a base that requires it: TypeScript refuses this. */
export interface PingRequest extends Request {
  method: "ping";
  params?: { [key: string]: unknown };
}

export interface Error {
  code: number;
  message: string;
  data?: unknown;
}

/** An intersection whose second part says `?` where the first requires. */
export type ParseError = Error & {
  code: -32700;
  message?: string;
};

export interface Response {
  id: string;
  error: Error;
}

/** Through Omit<>, the base keeps what is not omitted. */
export interface ParseErrorResponse extends Omit<Response, "error"> {
  id?: string;
  error: ParseError;
}
