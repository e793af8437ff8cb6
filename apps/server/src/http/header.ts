import type { Context } from "hono";
import type { ServerEnv } from "./server-env.js";

/**
 * One request header. On Node it is read from the `IncomingMessage`
 * (already parsed), which spares building a fetch `Headers` object per
 * request; elsewhere from the fetch request. For headers that appear once
 * (authorization, request id, content-length).
 */
export function headerOf(c: Context<ServerEnv>, name: string): string | undefined {
  const incoming = c.env?.incoming;
  if (incoming === undefined) return c.req.header(name);
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}
