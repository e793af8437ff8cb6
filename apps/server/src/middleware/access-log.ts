import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "pino";
import { describePrincipal } from "../auth/principal.js";
import { listenerOf } from "../http/listener.js";
import type { ServerEnv } from "../http/server-env.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";

/** What the access line says of one request (its fields, in their order in the line). */
interface AccessLine {
  /** First, where the request's child logger put it before perf-http-4: the line is unchanged. */
  req_id: string;
  method: string;
  path: string;
  route: string;
  status: number;
  ms: number;
  listener: string | undefined;
  principal: string | undefined;
  error_kind: string | undefined;
}

/**
 * Hands each request the server's logger (`requestLog(c)` makes the request's
 * own on first use), and on the way out writes one access-log line and the HTTP metrics. The route label is
 * Hono's matched pattern (`/1.0/instances/:name`), so metrics stay low-cardinality.
 *
 * The line and the metrics are figured here (the duration ends when the app
 * has its answer, as before) but written in the next check phase, after
 * @hono/node-server has written the answer: pino's serialisation and
 * redaction, prom-client's label hashing and the line's hand-off to libuv's
 * thread pool (which wakes a pool thread) were on every request's path
 * between the handler and the answer's `writev`: 11 % of the main thread's
 * samples of a steady-state create on the loaded 2-vCPU VM (perf-http-3 in
 * docs/performance/http-and-placement-api.md). The CPU is the same; the answer goes out sooner.
 */
export function accessLog(logger: Logger, metrics: ServerMetrics): MiddlewareHandler<ServerEnv> {
  const accessLines = withoutRedaction(logger);
  return async (c, next) => {
    const started = process.hrtime.bigint();
    c.set("logger", logger);
    await next();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routeLabel(routePath(c, -1));
    const principal = c.get("principal");
    const line: AccessLine = {
      req_id: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      route,
      status: c.res.status,
      ms: Math.round(seconds * 1e6) / 1e3,
      listener: listenerOf(c.env),
      principal: principal ? describePrincipal(principal) : undefined,
      error_kind: c.get("errorKind"),
    };
    setImmediate(writeAccess, accessLines, metrics, line, seconds);
  };
}

/**
 * The logger the access lines go through: the server's, without its
 * redaction. An access line's fields are the ones of `AccessLine`: none is
 * named like a secret and none holds an object, so redaction never changes
 * one, but its wildcard paths (`*.token`) ran a redactor over every field's
 * value: 2-5 µs of a line's 5-12 µs in pino on the loaded 2-vCPU VM
 * (sqlite-sustained in docs/performance/http-and-placement-api.md). The
 * bytes are the same. A child made once, so it shares the stream and follows the server
 * logger's level; the requests' own lines (`requestLog`) keep the redaction.
 */
function withoutRedaction(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

/** The metrics and the access line of one answered request (arguments, not a closure per request). */
function writeAccess(log: Logger, metrics: ServerMetrics, line: AccessLine, seconds: number): void {
  const { method, route, status } = line;
  metrics.httpRequests.inc({ method, route, status: String(status) });
  metrics.httpDuration.observe({ method, route }, seconds);
  if (status >= 500 && status !== 507) log.error(line, "request");
  // Heartbeats arrive every few seconds from every member: only worth a line when debugging or failing.
  else if (route === HEARTBEAT_ROUTE && method === "PUT" && status < 300) log.debug(line, "request");
  else log.info(line, "request");
}

const HEARTBEAT_ROUTE = "/1.0/cluster/members/:name/state";

/** Requests that matched no route share one label, so mistyped URLs can't grow the metric series. */
function routeLabel(pattern: string): string {
  return pattern === "*" || pattern === "/*" || pattern === "" ? "unmatched" : pattern;
}
