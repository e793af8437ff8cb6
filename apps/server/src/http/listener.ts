import type { IncomingMessage } from "node:http";
import type { ListenerKind, ServerBindings } from "./server-env.js";

const LISTENER = Symbol("berth.listener");

/**
 * Marks a request with the listener it came in on. Ordinary requests get it
 * in Hono's env from `listen()`; websocket upgrades are handed to the app by
 * `@hono/node-ws` with only Node's request, so the request itself carries it.
 */
export function tagListener(request: IncomingMessage, kind: ListenerKind): void {
  (request as IncomingMessage & { [LISTENER]?: ListenerKind })[LISTENER] = kind;
}

/** The listener of a request: the Unix socket trusts file permissions, TCP needs credentials. */
export function listenerOf(env: Partial<ServerBindings> | undefined): ListenerKind | undefined {
  if (env?.listener !== undefined) return env.listener;
  return (env?.incoming as (IncomingMessage & { [LISTENER]?: ListenerKind }) | undefined)?.[LISTENER];
}
