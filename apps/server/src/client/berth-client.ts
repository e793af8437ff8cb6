import { BerthApiError, BerthTransportError } from "./errors.js";
import { resolveClientSocketPath } from "./socket-path.js";
import { type Endpoint, send } from "./transport.js";

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface BerthClientOptions {
  /** `http(s)://host:port`; when absent the client talks to the Unix socket. */
  url?: string;
  /** Unix socket path; defaults to the shared resolution of `socket-path.ts` (`$BERTH_SOCKET`, ...). */
  socketPath?: string;
  /** Bearer token, needed over TCP. */
  token?: string;
  ca?: string | Buffer;
  timeoutMs?: number;
  /** Project used by project-scoped calls unless a call names another. */
  project?: string;
}

/** The answer of a raw request: the envelope's metadata plus the HTTP details. */
export interface ApiResult<T> {
  status: number;
  metadata: T;
  location: string | undefined;
}

function buildPath(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === "" ? path : `${path}${path.includes("?") ? "&" : "?"}${text}`;
}

function decodeEnvelope(status: number, text: string): { metadata: unknown } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new BerthTransportError(
      `The server answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  if (typeof envelope !== "object" || envelope === null) {
    throw new BerthTransportError(`The server answered HTTP ${status} without an LXD envelope`);
  }
  const e = envelope as { type?: unknown; error?: unknown; error_code?: unknown; metadata?: unknown };
  if (e.type === "error") {
    const code = typeof e.error_code === "number" ? e.error_code : status;
    throw new BerthApiError(
      code,
      typeof e.error === "string" ? e.error : `HTTP ${status}`,
      e.metadata ?? null,
    );
  }
  if (e.type !== "sync") throw new BerthTransportError(`Unexpected envelope type ${JSON.stringify(e.type)}`);
  return { metadata: e.metadata };
}

/**
 * Low-level berthd client: one method per HTTP exchange, answers unwrapped
 * from the LXD envelope, failures thrown as `BerthApiError`. The typed
 * resource methods live in `typed-client.ts` on top of this.
 */
export class BerthClient {
  readonly endpoint: Endpoint;
  readonly project: string | undefined;

  constructor(options: BerthClientOptions = {}) {
    this.endpoint = {
      ...(options.url !== undefined
        ? { url: options.url.replace(/\/+$/, "") }
        : { socketPath: options.socketPath ?? resolveClientSocketPath() }),
      ...(options.token !== undefined ? { token: options.token } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    this.project = options.project;
  }

  /** Sends a request and returns the envelope's metadata with status and Location. */
  async call<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await send(this.endpoint, method, buildPath(path, options.query), body, options.headers);
    const { metadata } = decodeEnvelope(response.status, response.body);
    const location = response.headers.location;
    return {
      status: response.status,
      metadata: metadata as T,
      location: typeof location === "string" ? location : undefined,
    };
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.call<T>(method, path, options)).metadata;
  }

  /** GET of an endpoint that answers without the envelope (metrics, OpenAPI); errors still come enveloped. */
  async getRaw(path: string, accept = "application/json"): Promise<string> {
    const response = await send(this.endpoint, "GET", path, undefined, { accept });
    if (response.status !== 200) decodeEnvelope(response.status, response.body);
    return response.body;
  }

  /** The Prometheus text of `/1.0/metrics`. */
  metricsText(): Promise<string> {
    return this.getRaw("/1.0/metrics", "text/plain");
  }
}
