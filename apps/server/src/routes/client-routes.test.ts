import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { routes } from "@berth/client";
import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES_FILE, renderClientRoutes } from "./client-routes.js";
import { allRoutes } from "./index.js";
import { rawRoutePaths } from "./raw-routes.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../../..");
const REGENERATE = "npx pnpm@10.34.8 --filter @berth/server generate:client-routes";

describe("@berth/client's route table is the server's", () => {
  it("the committed routes.generated.ts is what the route table renders", () => {
    const committed = readFileSync(join(root, CLIENT_ROUTES_FILE), "utf8");
    expect(committed, `client routes out of date: run ${REGENERATE}`).toBe(renderClientRoutes(allRoutes));
  });

  it("every client operation is a server route with the same method and path, and every route is in the client", () => {
    const server = new Map<string, string>(allRoutes.map((r) => [r.operationId, `${r.method} ${r.path}`]));
    for (const [path, item] of Object.entries(rawRoutePaths)) {
      for (const [method, operation] of Object.entries(item)) {
        server.set((operation as { operationId: string }).operationId, `${method.toUpperCase()} ${path}`);
      }
    }
    const client = new Map(Object.entries(routes).map(([id, r]) => [id, `${r.method} ${r.path}`]));
    expect(client).toEqual(server);
  });
});
