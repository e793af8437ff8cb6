/**
 * How the client moves one HTTP exchange. The core needs nothing but this
 * function type, so it runs wherever a transport exists: `fetchTransport`
 * (browsers, Node, Deno) or `@berth/client/node`'s `nodeTransport` (Unix
 * socket, TLS with a pinned CA). Later protocols (operations, events) add
 * methods on top of the same transport.
 */
export interface TransportRequest {
  method: string;
  /** Path and query, e.g. `/1.0/instances?project=p`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  /** One response header (case-insensitive name). */
  header(name: string): string | undefined;
  body: string;
}

/** Rejects with `BerthTransportError` when the server cannot be reached or does not answer in time. */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
