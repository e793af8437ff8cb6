import { apiJsonSchemas } from "@berth/api-types";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "./routes/index.js";
import { addMembers, memberState, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/** Values that look like what the API expects, so fuzzing gets past the first check into the engine. */
const plausibleString = fc.constantFrom(
  "",
  "default",
  "node1",
  "fz",
  "x86_64",
  "container",
  "virtual-machine",
  "spread",
  "strict",
  "4",
  "1GiB",
  "0-3",
  "CUSTOM_FZ",
  "VCPU",
  "@grp",
  "a".repeat(64),
  "limits.cpu",
  "ünïcødé",
  "\u0000",
  "../../etc/passwd",
  "def instance_placement(request, candidate_members):\n  return None\n",
);

const plausibleValue: fc.Arbitrary<unknown> = fc.oneof(
  plausibleString,
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, 1, 2147483647, 2147483648, -1, 1e308, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.oneof(plausibleString, fc.string({ maxLength: 12 })), plausibleString, { maxKeys: 4 }),
  fc.array(plausibleString, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Objects with the schema's own field names (and sometimes an unknown one) holding plausible or random values. */
function bodyFor(schemaName: string | undefined): fc.Arbitrary<unknown> {
  const schema = schemaName ? apiJsonSchemas()[schemaName] : undefined;
  const keys = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
  const shaped =
    keys.length === 0
      ? fc.dictionary(fc.string({ maxLength: 8 }), plausibleValue, { maxKeys: 4 })
      : fc.record(Object.fromEntries(keys.map((k) => [k, plausibleValue])), { requiredKeys: [] });
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
}

const PARAMS: Record<string, fc.Arbitrary<string>> = {
  name: fc.constantFrom("node1", "fzi", "fzp", "default", "ghost", "grp", "small", "%2E%2E", "a".repeat(64)),
  class: fc.constantFrom("VCPU", "MEMORY_MB", "CUSTOM_FZ", "lower", "X".repeat(300)),
  fingerprint: fc.constantFrom("a".repeat(64), "nothex", "b".repeat(64)),
  alias: fc.constantFrom("fz/alias", "ghost", "x"),
};

const QUERY = fc.record(
  {
    project: fc.constantFrom("default", "fzp", "ghost", "bad name", ""),
    target: fc.constantFrom("node1", "@grp", "@", "ghost", "@ghost", ""),
    recursion: fc.constantFrom("0", "1", "2", "9", "x"),
    dry_run: fc.constantFrom("true", "false", "1", "yes"),
  },
  { requiredKeys: [] },
);

describe("fuzzing request bodies against the running server", () => {
  let server: TestServer;
  const bodyRoutes = allRoutes.filter((r) => r.method !== "GET");

  beforeAll(async () => {
    server = await startTestServer();
    const local = server.local();
    await addMembers(local, [{ name: "node1" }, { name: "node2" }]);
    await local.groups.create({ name: "grp", members: ["node1"] });
    await local.projects.create({ name: "fzp" });
    await local.flavors.create({ name: "small", vcpus: 1, memory_mb: 512, disk_gb: 1 });
    await local.resourceClasses.create({ name: "CUSTOM_FZ" });
    await local.images.create({
      fingerprint: "a".repeat(64),
      architecture: "x86_64",
      aliases: [{ name: "fz/alias", description: "" }],
    });
    await local.createInstance({ name: "fzi" });
    await local.putMemberState("node1", memberState() as never);
  });
  afterAll(() => server.close());

  it("answers only 2xx or 4xx, never 5xx", async () => {
    const routeArb = fc.constantFrom(...bodyRoutes);
    const request = routeArb.chain((route) =>
      fc.record({
        route: fc.constant(route),
        params: fc.record(
          Object.fromEntries(
            [...route.path.matchAll(/:([a-z]+)/g)].map((m) => [m[1], PARAMS[m[1] ?? ""] ?? fc.constant("x")]),
          ),
        ),
        query: QUERY,
        body: fc.option(bodyFor(route.body), { nil: undefined, freq: 8 }),
      }),
    );
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ route, params, query, body }) => {
        const path = route.path.replace(/:([a-z]+)/g, (_, p: string) =>
          encodeURIComponent((params as Record<string, string>)[p] ?? "x"),
        );
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const response = await server.fetch(`${path}${search ? `?${search}` : ""}`, {
          method: route.method,
          token: server.adminToken,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await response.text();
        const envelope = JSON.parse(text) as { type: string };
        if (response.status >= 500 || (envelope.type !== "sync" && envelope.type !== "error")) {
          failures.push(
            `${route.method} ${path}?${search} ${JSON.stringify(body)} -> ${response.status} ${text}`,
          );
        }
        return response.status < 500;
      }),
      { numRuns: 250, seed: 20261121, endOnFailure: true },
    );
    expect(failures).toEqual([]);
  }, 90_000);

  it("survives a runaway scriptlet within its limits and keeps answering", async () => {
    // A fresh server: the fuzzer above may have deleted or reconfigured anything.
    await server.close();
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }]);
    const admin = server.tcp(server.adminToken);
    await admin.patchServerConfig({
      "instances.placement.scriptlet.timeout_ms": "300",
      "instances.placement.scriptlet":
        "def instance_placement(request, candidate_members):\n    for i in range(1000000000):\n        pass\n",
    });
    const started = Date.now();
    const runaway = await server.fetch("/1.0/instances", {
      method: "POST",
      token: server.adminToken,
      body: JSON.stringify({ name: "loop1" }),
    });
    expect(runaway.status).toBe(400);
    expect(((await runaway.json()) as { error: string }).error).toMatch(
      /^Failed instance placement scriptlet: Failed to run: /,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await server.fetch("/1.0", { token: server.adminToken })).status).toBe(200);
    await admin.patchServerConfig({
      "instances.placement.scriptlet":
        'def instance_placement(request, candidate_members):\n    s = "x"\n    for i in range(64):\n        s = s + s\n',
    });
    const bomb = await server.fetch("/1.0/instances", {
      method: "POST",
      token: server.adminToken,
      body: JSON.stringify({ name: "bomb1" }),
    });
    expect(bomb.status).toBe(400);
    await admin.patchServerConfig({ "instances.placement.scriptlet": "" });
  });
});
