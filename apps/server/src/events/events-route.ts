/**
 * `GET /1.0/events` as a websocket (LXD's events API): `?type=` picks
 * lifecycle, logging and/or operation events (all three by default),
 * `?project=` one project (default "default"), `?all-projects=true` every
 * project the caller may see. Each message is one LXD event as JSON text.
 * The websocket comes from `@hono/node-ws` (on `ws`), so the request goes
 * through berthd's middleware (request id, access log, authentication)
 * like every other.
 */
import type { NodeWebSocket } from "@hono/node-ws";
import type { Hono } from "hono";
import { canUseProject, isAdmin } from "../auth/principal.js";
import { badRequest, forbiddenHttp } from "../http/http-error.js";
import { parseBoolean, parseProject } from "../http/query.js";
import type { ServerEnv } from "../server-env.js";
import type { ServerServices } from "../services.js";
import { EVENT_TYPES, type EventType } from "./event-hub.js";

export function parseEventTypes(raw: string | undefined): Set<EventType> {
  if (raw === undefined || raw.trim() === "") return new Set(EVENT_TYPES);
  const types = new Set<EventType>();
  for (const name of raw.split(",")) {
    const type = name.trim();
    if (!(EVENT_TYPES as readonly string[]).includes(type))
      throw badRequest(`Invalid query parameter "type": "${type}" is not one of ${EVENT_TYPES.join(", ")}`);
    types.add(type as EventType);
  }
  return types;
}

export function registerEventsRoute(
  app: Hono<ServerEnv>,
  services: ServerServices,
  upgradeWebSocket: NodeWebSocket["upgradeWebSocket"],
): void {
  app.get(
    "/1.0/events",
    async (c, next) => {
      // Checked before the upgrade, so a bad request is an ordinary LXD error answer.
      const types = parseEventTypes(c.req.query("type"));
      const allProjects = parseBoolean("all-projects", c.req.query("all-projects"));
      const project = parseProject(c.req.query("project"));
      const principal = c.get("principal");
      if (allProjects && !isAdmin(principal))
        throw forbiddenHttp("Forbidden: all-projects=true needs an admin token");
      if (!allProjects && !canUseProject(principal, project))
        throw forbiddenHttp(`Forbidden: this token is not allowed to use project "${project}"`);
      if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
        throw badRequest("GET /1.0/events is a websocket: send Upgrade: websocket");
      c.set("eventFilter", { types, project: allProjects ? undefined : project });
      return next();
    },
    upgradeWebSocket((c) => {
      const filter = c.get("eventFilter");
      let unsubscribe: (() => void) | undefined;
      return {
        onOpen: (_event, socket) => {
          unsubscribe = services.events.subscribe({
            types: filter.types,
            project: filter.project,
            send: (event) => {
              if (socket.readyState === 1) socket.send(JSON.stringify(event));
            },
          });
        },
        onClose: () => unsubscribe?.(),
        onError: () => unsubscribe?.(),
      };
    }),
  );
}
