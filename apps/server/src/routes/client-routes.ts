/**
 * The route table of `@berth/client` (packages/client/src/routes.generated.ts),
 * written from berthd's own route table, so the client never retypes a
 * path: `npx pnpm@10.34.8 --filter @berth/server generate:client-routes`
 * rewrites it, and client-routes.test.ts fails while the committed file and
 * the server's routes disagree.
 */
import { rawRoutePaths } from "./raw-routes.js";
import type { RouteSpec } from "./route-spec.js";

interface ClientRoute {
  operationId: string;
  method: string;
  path: string;
  query: readonly string[];
  body: string | null;
}

function clientRoutesOf(routes: readonly RouteSpec[]): ClientRoute[] {
  const table: ClientRoute[] = routes.map((route) => ({
    operationId: route.operationId,
    method: route.method,
    path: route.path,
    query: route.query ?? [],
    body: route.body ?? null,
  }));
  // The endpoints that answer raw text (Prometheus, OpenAPI) have no RouteSpec, only their OpenAPI entry.
  for (const [path, item] of Object.entries(rawRoutePaths)) {
    for (const [method, operation] of Object.entries(item)) {
      const operationId = (operation as { operationId: string }).operationId;
      table.push({ operationId, method: method.toUpperCase(), path, query: [], body: null });
    }
  }
  return table;
}

export const CLIENT_ROUTES_FILE = "packages/client/src/routes.generated.ts";

/** The TypeScript source of the client's route table. */
export function renderClientRoutes(routes: readonly RouteSpec[]): string {
  const lines = clientRoutesOf(routes).map((route) => {
    const query = `[${route.query.map((name) => JSON.stringify(name)).join(", ")}]`;
    const body = route.body === null ? "null" : JSON.stringify(route.body);
    return `  ${route.operationId}: { method: "${route.method}", path: "${route.path}", query: ${query}, body: ${body} },`;
  });
  return [
    "// Generated from berthd's route table (apps/server/src/routes) by",
    "// `npx pnpm@10.34.8 --filter @berth/server generate:client-routes`: do not edit by hand.",
    "// apps/server/src/routes/client-routes.test.ts fails while this file and the server's routes disagree.",
    'import type { RouteTable } from "./route-table.js";',
    "",
    "/** Every berthd operation by its OpenAPI operationId: HTTP method, path pattern, query names, body schema. */",
    "export const routes = {",
    ...lines,
    "} as const satisfies RouteTable;",
    "",
  ].join("\n");
}
