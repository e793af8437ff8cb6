/**
 * Sheds load instead of queueing it without bound: past `limit` requests
 * in progress at once, a new one is answered at once with 503 and
 * `Retry-After` (the LXD error envelope) rather than joining the queue in
 * front of the database and the placement loop, where each waiting
 * request holds its memory and every client's latency grows. What tells
 * a client or a load balancer whether berthd is alive (`GET /1.0`,
 * `GET /1.0/metrics`) is always answered; event streams (`/1.0/events`)
 * live as long as their client and are not counted.
 */
import type { MiddlewareHandler } from "hono";
import { HttpError } from "../http/http-error.js";
import type { ServerEnv } from "../http/server-env.js";

/**
 * Far above what the benches ask at once (64 concurrent clients at most)
 * and what one process serves with useful latency; low enough that the
 * requests in progress hold a bounded amount of memory.
 */
export const DEFAULT_MAX_IN_FLIGHT = 1024;

/** Seconds a shed client is asked to wait: requests in progress finish in that order of time. */
const RETRY_AFTER_SECONDS = 1;

/** Requests answered whatever the load: liveness probes and long-lived event streams. */
function isExempt(method: string, path: string): boolean {
  if (method !== "GET") return false;
  return path === "/1.0" || path === "/1.0/" || path === "/1.0/metrics" || path === "/1.0/events";
}

/** The in-flight limit; `inFlight()` reads the count (metrics, tests). */
export function shedOverload(limit: number): MiddlewareHandler<ServerEnv> & { inFlight(): number } {
  let inFlight = 0;
  const handler: MiddlewareHandler<ServerEnv> = async (c, next) => {
    if (isExempt(c.req.method, c.req.path)) return next();
    if (inFlight >= limit) {
      throw new HttpError(
        503,
        `Server busy: ${inFlight} requests in progress, the limit is ${limit}; retry shortly`,
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      );
    }
    inFlight += 1;
    try {
      await next();
    } finally {
      inFlight -= 1;
    }
  };
  return Object.assign(handler, { inFlight: () => inFlight });
}
