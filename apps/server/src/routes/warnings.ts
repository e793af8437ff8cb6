import type { Warning } from "@berth/api-types";
import { parseBoolean } from "../http/query.js";
import { defineRoute, type RouteSpec } from "./route-spec.js";

const BASE = "/1.0/warnings";

const urlOf = (warning: Warning) => `${BASE}/${warning.uuid}`;

/** LXD's `warnings` extension: the engine's warnings (health/warnings.ts), listed, shown, acknowledged, deleted. */
export const warningRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: BASE,
    operationId: "listWarnings",
    summary:
      "List the cluster's warnings (members offline or evacuated for long, inventories below usage, scriptlet failures)",
    tag: "warnings",
    access: "admin",
    query: ["recursion", "project", "all-projects"],
    // As LXD: `?project=NAME` keeps that project's warnings (cluster-wide ones have project "";
    // a failed scriptlet run is its placement's project's), no project or `all-projects=true` lists them all.
    handle: async ({ services, recursion, project, query }) => {
      const allProjects = parseBoolean("all-projects", query("all-projects"));
      const named = (query("project") ?? "") !== "";
      const warnings = await services.engine.warnings.list(allProjects || !named ? undefined : project);
      return { metadata: recursion === 0 ? warnings.map(urlOf) : warnings };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/:uuid`,
    operationId: "getWarning",
    summary: "Show a warning",
    tag: "warnings",
    access: "admin",
    response: "Warning",
    errors: [404],
    handle: async ({ services, params }) => ({ metadata: await services.engine.warnings.get(params.uuid) }),
  }),
  ...(["PUT", "PATCH"] as const).map((method) =>
    defineRoute({
      method,
      path: `${BASE}/:uuid`,
      operationId: method === "PUT" ? "putWarning" : "patchWarning",
      summary: "Set a warning's status: acknowledged (lxc warning ack) or new",
      tag: "warnings",
      access: "admin",
      body: "WarningPut",
      errors: [404],
      handle: async ({ services, params, body }) => {
        services.engine.warnings.setStatus(params.uuid, body.status);
        return { metadata: {} };
      },
    }),
  ),
  defineRoute({
    method: "DELETE",
    path: `${BASE}/:uuid`,
    operationId: "deleteWarning",
    summary: "Delete a warning (it comes back, new, if its condition is seen again)",
    tag: "warnings",
    access: "admin",
    errors: [404],
    handle: async ({ services, params }) => {
      services.engine.warnings.delete(params.uuid);
      return { metadata: {} };
    },
  }),
];
