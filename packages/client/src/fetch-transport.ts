import { BerthTransportError } from "./errors.js";
import type { Transport } from "./transport.js";

/** Where berthd is and how to authenticate, for `fetchTransport`. */
export interface FetchTransportOptions {
  /** `http(s)://host:port` of berthd (a browser page served by berthd may use its own origin). */
  url: string;
  /** Bearer token, needed on TCP. */
  token?: string;
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** A transport on the Fetch API: no dependencies, works in browsers and in Node 20+. */
export function fetchTransport(options: FetchTransportOptions): Transport {
  const base = options.url.replace(/\/+$/, "");
  if (!/^https?:\/\//.test(base)) {
    throw new BerthTransportError(`Unsupported URL "${options.url}": use http:// or https://`);
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  const send = options.fetch ?? globalThis.fetch;
  return async (request) => {
    const headers = { ...request.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (request.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await send(`${base}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as { name?: unknown }).name === "TimeoutError") {
        throw new BerthTransportError(`No answer from ${base} within ${timeoutMs} ms`, "ETIMEDOUT");
      }
      const reason = causeCode(error) ?? (error as Error).message;
      throw new BerthTransportError(`Cannot reach berthd at ${base}: ${reason}`, causeCode(error), {
        cause: error,
      });
    }
    const body = await response.text();
    return { status: response.status, header: (name) => response.headers.get(name) ?? undefined, body };
  };
}
