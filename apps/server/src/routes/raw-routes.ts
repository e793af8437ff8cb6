import type { Hono } from "hono";
import { isAdmin } from "../auth/principal.js";
import { forbiddenHttp } from "../http/http-error.js";
import type { ServerEnv } from "../http/server-env.js";
import type { ServerMetrics } from "../metrics/server-metrics.js";

/**
 * The two endpoints that are not LXD envelopes, because their consumers
 * expect the raw format: Prometheus scrapers and OpenAPI tooling.
 */
export function registerRawRoutes(
  app: Hono<ServerEnv>,
  metrics: ServerMetrics,
  openApiDocument: () => Record<string, unknown>,
): void {
  app.get("/1.0/metrics", async (c) => {
    // Usage per member is cluster-wide information: admins (and the local socket) only.
    if (!isAdmin(c.get("principal"))) throw forbiddenHttp("Forbidden: /1.0/metrics needs an admin token");
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { "content-type": metrics.registry.contentType });
  });
  let cached: Record<string, unknown> | undefined;
  app.get("/1.0/openapi.json", (c) => {
    cached ??= openApiDocument();
    return c.json(cached);
  });
}

/** OpenAPI entries for the raw endpoints, which have no `RouteSpec`. */
export const rawRoutePaths: Record<string, Record<string, unknown>> = {
  "/1.0/metrics": {
    get: {
      operationId: "getMetrics",
      summary:
        "Prometheus metrics: placements, failures by kind, latencies, scriptlet runs, usage per member and class",
      tags: ["server"],
      "x-berth-access": "admin",
      responses: {
        "200": {
          description: "Prometheus text exposition format",
          content: { "text/plain": { schema: { type: "string" } } },
        },
        "403": {
          description: "Not an admin token",
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
        },
      },
    },
  },
  "/1.0/openapi.json": {
    get: {
      operationId: "getOpenApi",
      summary: "This document",
      tags: ["server"],
      "x-berth-access": "any",
      responses: {
        "200": {
          description: "OpenAPI 3.1 document",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  },
};
