/**
 * Property-based fuzzing of every request body berthd accepts: the endpoints
 * come from the server's own OpenAPI document, the bodies from fast-check
 * (any JSON; objects built from the schema's own field names with arbitrary
 * values; non-JSON text). Every answer must be a 4xx or a success, never a
 * 5xx or a dropped connection, and the server must keep answering.
 */
import { openStore } from "@berth/adapter-sqlite";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";

const RUNS_PER_ENDPOINT = sized(40, 8);

interface Endpoint {
  method: string;
  path: string;
  fields: string[];
}

type SchemaNode = { $ref?: string; properties?: Record<string, unknown>; allOf?: SchemaNode[] };

/** Top-level property names of a request body schema ($refs into components resolved). */
function fieldsOf(
  schema: SchemaNode | undefined,
  components: Record<string, SchemaNode>,
  depth = 0,
): string[] {
  if (schema === undefined || depth > 5) return [];
  if (schema.$ref !== undefined)
    return fieldsOf(components[schema.$ref.split("/").at(-1)!], components, depth + 1);
  const own = Object.keys(schema.properties ?? {});
  return [...own, ...(schema.allOf ?? []).flatMap((part) => fieldsOf(part, components, depth + 1))];
}

/** Path parameters point at records that exist, so requests reach the handlers' validation. */
const PATH_VALUES: Record<string, string> = {
  "/1.0/cluster/members/{name}": "node1",
  "/1.0/cluster/groups/{name}": "fzgroup",
  "/1.0/flavors/{name}": "fzflavor",
  "/1.0/projects/{name}": "fzproject",
  "/1.0/profiles/{name}": "default",
  "/1.0/images/aliases/{alias}": "fzalias",
  "/1.0/images/{fingerprint}": "0000000000000000000000000000000000000000000000000000000000000000",
  "/1.0/placement-groups/{name}": "fzpg",
  "/1.0/instances/{name}": "fzinstance",
};

function concretePath(path: string): string {
  const prefix = Object.keys(PATH_VALUES).find((p) => path.startsWith(p));
  let out = path;
  if (prefix !== undefined) out = out.replace(/\{(name|alias|fingerprint)\}/, PATH_VALUES[prefix]!);
  return out.replace("{class}", "CUSTOM_FZ");
}

const cluster = await smallCluster("fuzz", 4, { VCPU: { total: 64 }, MEMORY_MB: { total: 262144 } });
afterAll(() => cluster.cleanup());

describe("request-body fuzzing against a real berthd", () => {
  it("answers every generated body of every endpoint with a 2xx or 4xx, never a 5xx", async () => {
    const server = await Berthd.start({ db: cluster.db, token: cluster.token, logLevel: "warn" });
    try {
      for (const [path, body] of [
        ["/1.0/cluster/groups", { name: "fzgroup", description: "" }],
        ["/1.0/flavors", { name: "fzflavor", vcpus: 1, ram: 512, disk: 1 }],
        ["/1.0/projects", { name: "fzproject" }],
        ["/1.0/placement-groups", { name: "fzpg", policy: "spread", rigor: "permissive" }],
        ["/1.0/instances", { name: "fzinstance", config: { "limits.cpu": "1" } }],
        ["/1.0/resource-classes", { name: "CUSTOM_FZ" }],
      ] as const) {
        await server.request("POST", path, body);
      }
      const openApi = await server.request("GET", "/1.0/openapi.json");
      const document = openApi.json as unknown as {
        paths: Record<
          string,
          Record<string, { requestBody?: { content: Record<string, { schema: SchemaNode }> } }>
        >;
        components?: { schemas?: Record<string, SchemaNode> };
      };
      const components = document.components?.schemas ?? {};
      const endpoints: Endpoint[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const schema = operation.requestBody?.content["application/json"]?.schema;
          if (operation.requestBody !== undefined) {
            endpoints.push({ method: method.toUpperCase(), path, fields: fieldsOf(schema, components) });
          }
        }
      }
      expect(endpoints.length).toBeGreaterThan(30);

      const statuses: Record<number, number> = {};
      const fiveHundreds: string[] = [];
      let cases = 0;
      let transportErrors = 0;
      for (const endpoint of endpoints) {
        const known = endpoint.fields.length > 0 ? endpoint.fields : ["name"];
        const bodies = fc.oneof(
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc
            .dictionary(
              fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 12 })),
              fc.jsonValue({ maxDepth: 3 }),
              {
                maxKeys: 6,
              },
            )
            .map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 64 }),
        );
        await fc.assert(
          fc.asyncProperty(bodies, async (body) => {
            cases += 1;
            const url = `${server.url}${concretePath(endpoint.path)}`;
            try {
              const response = await fetch(url, {
                method: endpoint.method,
                headers: { authorization: `Bearer ${cluster.token}`, "content-type": "application/json" },
                body,
                signal: AbortSignal.timeout(30_000),
              });
              await response.arrayBuffer();
              statuses[response.status] = (statuses[response.status] ?? 0) + 1;
              if (response.status >= 500)
                fiveHundreds.push(`${endpoint.method} ${endpoint.path} ${body.slice(0, 200)}`);
            } catch {
              transportErrors += 1;
            }
          }),
          { numRuns: RUNS_PER_ENDPOINT, seed: 0x6265_7274 + cases },
        );
      }
      const alive = await server.request("GET", "/1.0");
      recordFigures("request-body fuzzing", {
        endpoints: endpoints.length,
        "fuzz cases tried": cases,
        "2xx": Object.entries(statuses).reduce((n, [s, c]) => n + (Number(s) < 300 ? c : 0), 0),
        "4xx": Object.entries(statuses).reduce(
          (n, [s, c]) => n + (Number(s) >= 400 && Number(s) < 500 ? c : 0),
          0,
        ),
        "5xx": fiveHundreds.length,
        "transport errors": transportErrors,
        "server answers afterwards": alive.status === 200,
      });
      expect(fiveHundreds).toEqual([]);
      expect(transportErrors).toBe(0);
      expect(alive.status).toBe(200);
    } finally {
      await server.stop();
    }
    const store = await openStore(cluster.db);
    const report = await store.check().finally(() => store.close());
    expect(report.violations).toEqual([]);
  });
});
