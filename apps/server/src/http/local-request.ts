import type { Hono } from "hono";
import type { ServerEnv } from "./server-env.js";

/**
 * Calls the app in-process as a local (Unix socket) client: the demo loader
 * uses the very same API, validation and engine calls as any other client.
 */
export async function localRequest(
  app: Hono<ServerEnv>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; envelope: { type: string; error?: string; metadata?: unknown } }> {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (body !== undefined) init.body = JSON.stringify(body);
  // Only `listener` is read from the bindings; there is no node request behind an in-process call.
  const bindings = { listener: "unix" } as ServerEnv["Bindings"];
  const response = await app.request(path, init, bindings);
  return {
    status: response.status,
    envelope: (await response.json()) as { type: string; error?: string; metadata?: unknown },
  };
}
