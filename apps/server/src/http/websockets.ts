import type { Server } from "node:http";
import { createNodeWebSocket } from "@hono/node-ws";
import type { Hono } from "hono";
import type { ServerEnv } from "./server-env.js";

type Inject = (server: Server) => void;

/** Each app's websocket upgrade handler, found by `listen()` for the servers it creates. */
const injectors = new WeakMap<Hono<ServerEnv>, Inject>();

/**
 * Gives `app` websocket routes (`@hono/node-ws`): returns the route helper;
 * `listen()` attaches the upgrade handling to every server of the app.
 */
export function enableWebsockets(app: Hono<ServerEnv>) {
  const nodeWs = createNodeWebSocket({ app });
  injectors.set(app, (server) => nodeWs.injectWebSocket(server));
  return nodeWs.upgradeWebSocket;
}

/** The upgrade handler for a server of `app`, when it has websocket routes. */
export function websocketsOf(app: Hono<ServerEnv>): Inject | undefined {
  return injectors.get(app);
}
