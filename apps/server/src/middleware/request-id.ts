import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { headerOf } from "../http/header.js";
import type { ServerEnv } from "../server-env.js";

const SANE_ID = /^[\w\-=]+$/;

/**
 * Every request gets an id (`X-Request-Id`): a sane client-supplied one is
 * kept, so callers can correlate their logs with ours; otherwise a UUID.
 * It is echoed in the response.
 */
export function requestId(maxLength: number): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const given = headerOf(c, "x-request-id");
    const id = given !== undefined && given.length <= maxLength && SANE_ID.test(given) ? given : randomUUID();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
  };
}
