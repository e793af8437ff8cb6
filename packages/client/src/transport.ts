/**
 * How the client moves one HTTP exchange. The core needs nothing but this
 * function type, so it runs wherever a transport exists: `fetchTransport`
 * (browsers, Node, Deno) or `@berth/client/node`'s `nodeTransport` (Unix
 * socket, TLS with a pinned CA). Later protocols (operations, events) add
 * methods on top of the same transport.
 */
export interface TransportRequest {
  /** The HTTP method. */
  method: string;
  /** Path and query, e.g. `/1.0/instances?project=p`. */
  path: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** The body, already serialised (JSON). */
  body?: string;
}

/** One HTTP answer as the client reads it: status, headers on demand, the whole body as text. */
export interface TransportResponse {
  /** The HTTP status. */
  status: number;
  /** One response header (case-insensitive name). */
  header(name: string): string | undefined;
  /** The whole body, as text. */
  body: string;
}

/** Rejects with `BerthTransportError` when the server cannot be reached or does not answer in time. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
