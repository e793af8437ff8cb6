import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "pino";
import { describePrincipal } from "../auth/principal.js";
import { listenerOf } from "../http/listener.js";
import type { ServerEnv } from "../http/server-env.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";

/**
 * Gives each request a child logger carrying its request id, and on the way
 * out writes one access-log line and the HTTP metrics. The route label is
 * Hono's matched pattern (`/1.0/instances/:name`), so metrics stay low-cardinality.
 */
export function accessLog(logger: Logger, metrics: ServerMetrics): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const started = process.hrtime.bigint();
    const log = logger.child({ req_id: c.get("requestId") });
    c.set("log", log);
    await next();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routeLabel(routePath(c, -1));
    const status = c.res.status;
    metrics.httpRequests.inc({ method: c.req.method, route, status: String(status) });
    metrics.httpDuration.observe({ method: c.req.method, route }, seconds);
    const principal = c.get("principal");
    const line = {
      method: c.req.method,
      path: c.req.path,
      route,
      status,
      ms: Math.round(seconds * 1e6) / 1e3,
      listener: listenerOf(c.env),
      principal: principal ? describePrincipal(principal) : undefined,
      error_kind: c.get("errorKind"),
    };
    if (status >= 500 && status !== 507) log.error(line, "request");
    // Heartbeats arrive every few seconds from every member: only worth a line when debugging or failing.
    else if (route === HEARTBEAT_ROUTE && c.req.method === "PUT" && status < 300) log.debug(line, "request");
    else log.info(line, "request");
  };
}

const HEARTBEAT_ROUTE = "/1.0/cluster/members/:name/state";

/** Requests that matched no route share one label, so mistyped URLs can't grow the metric series. */
function routeLabel(pattern: string): string {
  return pattern === "*" || pattern === "/*" || pattern === "" ? "unmatched" : pattern;
}
