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

const id = fc.integer({ min: 0, max: 99 });

/** Valid bodies per schema, so mutations of them explore the engine rather than the validator. */
const VALID: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  InstancesPost: fc.record(
    { name: id.map((n) => `r${n}`), flavor: fc.constantFrom("small", undefined) },
    { requiredKeys: ["name"] },
  ),
  BulkCreateRequest: fc
    .array(
      id.map((n) => ({ name: `b${n}` })),
      { minLength: 1, maxLength: 4 },
    )
    .map((instances) => ({ instances })),
  ClusterMembersPost: id.map((n) => ({ server_name: `n${n}` })),
  ClusterMemberPatch: fc.constant({ description: "x" }),
  ClusterMemberState: fc.constant(memberState()),
  ClusterMemberStatePost: fc.constantFrom({ action: "evacuate" }, { action: "restore" }),
  ProjectsPost: id.map((n) => ({ name: `p${n}` })),
  ProfilesPost: id.map((n) => ({ name: `pr${n}` })),
  FlavorsPost: id.map((n) => ({ name: `f${n}`, vcpus: 1, memory_mb: 64, disk_gb: 0 })),
  PlacementGroupsPost: id.map((n) => ({ name: `g${n}`, policy: "spread" })),
  ServerPatch: fc.constant({ config: { "user.k": "v" } }),
  ClusterGroupsPost: id.map((n) => ({ name: `cg${n}` })),
  InstancePatch: fc.constant({ description: "d" }),
  InstancePost: fc.constantFrom({}, { name: "renamed" }),
  InventoryPut: fc.record({
    generation: fc.integer({ min: 0, max: 4 }),
    total: fc.integer({ min: 1, max: 64 }),
  }),
  ResourceClassesPost: id.map((n) => ({ name: `CUSTOM_R${n}` })),
  ImagesPost: id.map((n) => ({ fingerprint: n.toString(16).padStart(64, "0"), architecture: "x86_64" })),
  TokensPost: id.map((n) => ({ name: `t${n}`, projects: ["fzp"] })),
};

/** A valid body with at most one field replaced by a plausible or random value, or dropped. */
function mutated(schemaName: string): fc.Arbitrary<unknown> | undefined {
  const valid = VALID[schemaName];
  if (!valid) return undefined;
  return fc
    .tuple(valid, fc.nat(), plausibleValue, fc.integer({ min: 0, max: 2 }))
    .map(([body, pick, value, how]) => {
      const keys = Object.keys(body);
      const key = keys[pick % Math.max(keys.length, 1)];
      if (how === 0 || key === undefined) return body;
      const copy: Record<string, unknown> = { ...body };
      if (how === 1) copy[key] = value;
      else delete copy[key];
      return copy;
    });
}

/** Objects with the schema's own field names (and sometimes an unknown one) holding plausible or random values. */
function bodyFor(schemaName: string | undefined): fc.Arbitrary<unknown> {
  const schema = schemaName ? apiJsonSchemas()[schemaName] : undefined;
  const keys = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
  const shaped =
    keys.length === 0
      ? fc.dictionary(fc.string({ maxLength: 8 }), plausibleValue, { maxKeys: 4 })
      : fc.record(Object.fromEntries(keys.map((k) => [k, plausibleValue])), { requiredKeys: [] });
  const fromValid = schemaName ? mutated(schemaName) : undefined;
  return fc.oneof(
    ...(fromValid ? [{ weight: 6, arbitrary: fromValid }] : []),
    { weight: 4, arbitrary: shaped },
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

/** Mostly sensible values, sometimes a wrong one: a bad query parameter alone would stop every request at validation. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: good }, { weight: 1, arbitrary: bad });

const QUERY = fc.record(
  {
    project: mostly(fc.constantFrom("default", "fzp"), fc.constantFrom("ghost", "bad name", "")),
    target: mostly(fc.constantFrom("node1", "@grp"), fc.constantFrom("@", "ghost", "@ghost", "")),
    recursion: mostly(fc.constantFrom("0", "1"), fc.constantFrom("2", "9", "x")),
    dry_run: mostly(fc.constantFrom("false", "true"), fc.constantFrom("1", "yes")),
  },
  { requiredKeys: [] },
);

/** Cases per route in the every-route fuzz: each route of the API is tried, whatever the draw. */
const QUERY_RUNS_PER_ROUTE = 4;

/** Any text a client could put in a query value: empty, long, unicode, control and URL-special characters. */
const anyQueryText = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ maxLength: 24, unit: "binary" }),
  fc.constantFrom(
    "",
    " ",
    "%",
    "&",
    "=",
    "?",
    "#",
    "\u0000",
    "../x",
    "@",
    "@@",
    "x".repeat(300),
    "-1",
    "1e9",
  ),
);

/**
 * The query of one request to `route`: each parameter the route honours
 * (RouteSpec.query, what the OpenAPI document lists) mostly well-formed,
 * sometimes any text; sometimes one parameter it does not honour.
 */
function queryFor(route: (typeof allRoutes)[number]): fc.Arbitrary<[string, string][]> {
  const good: Record<string, fc.Arbitrary<string>> = {
    project: fc.constantFrom("default", "fzp"),
    target: fc.constantFrom("node1", "@grp"),
    recursion: fc.constantFrom("0", "1", "2"),
    dry_run: fc.constantFrom("false", "true"),
  };
  const honoured = (route.query ?? []).map((name) =>
    fc.option(
      mostly(good[name] ?? anyQueryText, anyQueryText).map((value): [string, string] => [name, value]),
      { nil: undefined, freq: 3 },
    ),
  );
  const stray = fc.option(
    fc.tuple(
      fc.oneof(
        fc.constantFrom("filter", "all-projects", "project", "recursion"),
        fc.string({ maxLength: 8 }),
      ),
      anyQueryText,
    ),
    { nil: undefined, freq: 4 },
  );
  return fc
    .tuple(fc.tuple(...honoured), stray)
    .map(([pairs, extra]) => [...pairs, extra].filter((p): p is [string, string] => p !== undefined));
}

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
    const statuses = new Map<number, number>();
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
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
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
    // The generator must reach past validation: some requests succeed, and the engine's own errors show up.
    const count = (from: number, to: number) =>
      [...statuses].filter(([s]) => s >= from && s < to).reduce((sum, [, n]) => sum + n, 0);
    expect(count(200, 300)).toBeGreaterThan(5);
    expect(count(404, 405) + count(409, 410)).toBeGreaterThan(5);
  }, 90_000);

  it("answers every route, with or without a body, under any query it may get: never 5xx", async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const [index, route] of allRoutes.entries()) {
      const request = fc.record({
        params: fc.record(
          Object.fromEntries(
            [...route.path.matchAll(/:([a-z]+)/g)].map((m) => [m[1], PARAMS[m[1] ?? ""] ?? fc.constant("x")]),
          ),
        ),
        query: queryFor(route),
        body:
          route.body === undefined
            ? fc.constant(undefined)
            : fc.option(bodyFor(route.body), { nil: undefined, freq: 6 }),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ params, query, body }) => {
          cases++;
          const path = route.path.replace(/:([a-z]+)/g, (_, p: string) =>
            encodeURIComponent((params as Record<string, string>)[p] ?? "x"),
          );
          const search = new URLSearchParams(query).toString();
          const response = await server.fetch(`${path}${search ? `?${search}` : ""}`, {
            method: route.method,
            token: server.adminToken,
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          const text = await response.text();
          const envelope = JSON.parse(text) as { type: string };
          if (response.status >= 500 || (envelope.type !== "sync" && envelope.type !== "error")) {
            failures.push(`${route.method} ${path}?${search} -> ${response.status} ${text.slice(0, 300)}`);
          }
          return response.status < 500;
        }),
        { numRuns: QUERY_RUNS_PER_ROUTE, seed: 20261124 + index, endOnFailure: true },
      );
    }
    expect(failures).toEqual([]);
    expect(cases).toBe(allRoutes.length * QUERY_RUNS_PER_ROUTE);
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
