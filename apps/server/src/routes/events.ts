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
import { canUseProject, isAdmin, projectRefusal } from "../auth/principal.js";
import { EVENT_TYPES, type EventType } from "../events/event-hub.js";
import { badRequest, forbiddenHttp } from "../http/http-error.js";
import { parseBoolean, parseProject } from "../http/query.js";
import type { ServerEnv } from "../http/server-env.js";
import type { ServerServices } from "./services.js";

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
        throw forbiddenHttp(projectRefusal(principal, project));
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

/** The OpenAPI entry of `/1.0/events` (a websocket: no RouteSpec). */
export const eventsOpenApiPaths: Record<string, Record<string, unknown>> = {
  "/1.0/events": {
    get: {
      operationId: "getEvents",
      summary:
        "Websocket of LXD events, one JSON message each ({type, timestamp, metadata, location, project}): lifecycle (placements, moves, evacuations, reservations), logging (engine and scriptlet log lines), operation",
      tags: ["events"],
      "x-berth-access": "project",
      parameters: [
        {
          name: "type",
          in: "query",
          description: `Comma-separated event types (default all): ${EVENT_TYPES.join(", ")}`,
          schema: { type: "string" },
        },
        {
          name: "project",
          in: "query",
          description: 'Project (default "default")',
          schema: { type: "string" },
        },
        {
          name: "all-projects",
          in: "query",
          description: "Every project the caller may see (admins: all)",
          schema: { type: "boolean" },
        },
      ],
      responses: {
        "101": { description: "Switching to the websocket protocol" },
        "400": {
          description: "Unknown event type or bad query parameter",
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
        },
        "403": {
          description: "Not allowed in the project",
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
        },
      },
    },
  },
};
