import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A failure decided by the HTTP layer itself (bad query parameter, missing
 * token, body too large...), as opposed to an `EngineError` raised by the
 * engine. Both end up in the same LXD error envelope.
 */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (message: string): HttpError =>
  new HttpError(401, message, { "WWW-Authenticate": 'Bearer realm="berth"' });
export const forbiddenHttp = (message: string): HttpError => new HttpError(403, message);
export const notFoundHttp = (message: string): HttpError => new HttpError(404, message);
