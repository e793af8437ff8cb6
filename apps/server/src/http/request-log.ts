import type { Context } from "hono";
import type { Logger } from "pino";
import type { ServerEnv } from "./server-env.js";

/**
 * The request's logger, whose lines carry its `req_id`: made on first use,
 * since most requests log nothing but their access line (written with the
 * id by `accessLog`). A pino child per request was ~10 µs of CPU per create
 * (perf-http-4). Undefined only before `accessLog` ran.
 */
export function requestLog(c: Context<ServerEnv>): Logger | undefined {
  const made = c.get("log");
  if (made !== undefined) return made;
  const log = c.get("logger")?.child({ req_id: c.get("requestId") });
  c.set("log", log);
  return log;
}
