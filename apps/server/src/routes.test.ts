import { AutomaticRebalancePreviewSchema } from "@berth/api-types";
import { newInstance } from "@berth/engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "./routes/index.js";
import {
  addMembers,
  memberResources,
  memberState,
  startTestServer,
  type TestServer,
} from "./testing/test-server.fixture.js";

interface Answer {
  status: number;
  body: { type: string; error?: string; error_code?: number; metadata?: unknown; operation?: string };
  headers: Headers;
}

const FINGERPRINT = "a".repeat(64);
const OTHER_FINGERPRINT = "b".repeat(64);

describe("every route over HTTP", () => {
  let server: TestServer;
  const seen = new Set<string>();

  /** One request with the admin token; records which route pattern it exercised. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    pattern?: string,
    headers?: Record<string, string>,
  ): Promise<Answer> {
    const init: RequestInit & { token: string } = { method, token: server.adminToken };
    if (headers !== undefined) init.headers = headers;
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await server.fetch(path, init);
    const text = await response.text();
    seen.add(`${method} ${pattern ?? path.split("?")[0]}`);
    return { status: response.status, body: JSON.parse(text), headers: response.headers };
  }

  beforeAll(async () => {
    server = await startTestServer({ bodyLimitBytes: 64 * 1024 });
  });
  afterAll(() => server.close());

  it("GET/PUT/PATCH /1.0: info and config, validated per key", async () => {
    const info = await call("GET", "/1.0");
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ type: "sync", status: "Success", status_code: 200 });
    expect((info.body.metadata as { api_extensions: string[] }).api_extensions).toContain(
      "instances_placement_scriptlet",
    );
    expect((await call("PATCH", "/1.0", { config: { "cluster.offline_threshold": "30" } })).status).toBe(200);
    const bad = await call("PATCH", "/1.0", { config: { "cluster.offline_threshold": "3" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("cluster.offline_threshold");
    const unknown = await call("PATCH", "/1.0", { config: { "no.such.key": "1" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain("no.such.key");
    const broken = await call("PATCH", "/1.0", { config: { "instances.placement.scriptlet": "def f(:\n" } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toContain("instances.placement.scriptlet");
    const check = async (source: unknown) => call("POST", "/1.0/scriptlet/check", { source });
    expect(
      (await check("def instance_placement(request, candidate_members):\n    pass\n")).body.metadata,
    ).toEqual({
      valid: true,
      error: null,
    });
    expect(
      (await check("def instance_placement(request, candidate_members):\n    x = \n")).body.metadata,
    ).toEqual({
      valid: false,
      error: { message: "instance_placement:2:9: got newline, want primary expression", line: 2, column: 9 },
    });
    expect((await check(42)).status).toBe(400);
    expect((await call("POST", "/1.0/scriptlet/check", {})).body.error).toBe('Missing field "source"');
    expect((await call("PUT", "/1.0", { config: { "user.a": "1" } })).status).toBe(200);
    const after = (await call("GET", "/1.0")).body.metadata as { config: Record<string, string> };
    expect(after.config).toEqual({ "user.a": "1" });
  });

  it("cluster members: CRUD, state/heartbeat, resources, evacuate/restore", async () => {
    const created = await call("POST", "/1.0/cluster/members", { server_name: "m1", architecture: "x86_64" });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/1.0/cluster/members/m1");
    expect(created.body.metadata).toMatchObject({ server_name: "m1", status: "Online" });
    expect((await call("POST", "/1.0/cluster/members", { server_name: "m1" })).status).toBe(409);
    expect((await call("POST", "/1.0/cluster/members", { server_name: "-bad-" })).status).toBe(400);
    expect(
      (await call("POST", "/1.0/cluster/members", { server_name: "m9", groups: ["nogroup"] })).status,
    ).toBe(404);
    await call("POST", "/1.0/cluster/members", { server_name: "m2", architecture: "x86_64" });
    expect((await call("GET", "/1.0/cluster/members")).body.metadata).toEqual([
      "/1.0/cluster/members/m1",
      "/1.0/cluster/members/m2",
    ]);
    const full = await call("GET", "/1.0/cluster/members?recursion=1");
    expect((full.body.metadata as { server_name: string }[]).map((m) => m.server_name)).toEqual(["m1", "m2"]);
    expect((await call("GET", "/1.0/cluster/members?recursion=7")).status).toBe(400);
    expect(
      (await call("GET", "/1.0/cluster/members/m1", undefined, "/1.0/cluster/members/:name")).status,
    ).toBe(200);
    expect(
      (await call("GET", "/1.0/cluster/members/nope", undefined, "/1.0/cluster/members/:name")).status,
    ).toBe(404);
    const put = await call(
      "PUT",
      "/1.0/cluster/members/m1",
      {
        roles: [],
        failure_domain: "rack1",
        description: "d",
        config: { "user.zone": "a" },
        groups: [],
        traits: ["CUSTOM_SSD"],
      },
      "/1.0/cluster/members/:name",
    );
    expect(put.status).toBe(200);
    expect(
      (await call("PUT", "/1.0/cluster/members/m1", { roles: [] }, "/1.0/cluster/members/:name")).status,
    ).toBe(400);
    await call(
      "PATCH",
      "/1.0/cluster/members/m1",
      { config: { "user.rack": "r1" } },
      "/1.0/cluster/members/:name",
    );
    const m1 = (await call("GET", "/1.0/cluster/members/m1")).body.metadata as Record<string, unknown>;
    expect(m1).toMatchObject({
      failure_domain: "rack1",
      config: { "user.zone": "a", "user.rack": "r1" },
      traits: ["CUSTOM_SSD"],
    });
    expect(
      (await call("PATCH", "/1.0/cluster/members/m1", { bogus: 1 }, "/1.0/cluster/members/:name")).status,
    ).toBe(400);

    const statePath = "/1.0/cluster/members/:name/state";
    expect((await call("PUT", "/1.0/cluster/members/m1/state", memberState(), statePath)).status).toBe(200);
    const state = await call("GET", "/1.0/cluster/members/m1/state", undefined, statePath);
    expect(state.body.metadata).toMatchObject({ sysinfo: { processes: 10 } });
    // Decoded the Go way: missing fields are zero values, but a negative size is nonsense.
    const negative = { sysinfo: { total_ram: -1 } };
    expect((await call("PUT", "/1.0/cluster/members/m1/state", negative, statePath)).status).toBe(400);
    expect((await call("PUT", "/1.0/cluster/members/zz/state", memberState(), statePath)).status).toBe(404);

    const resPath = "/1.0/cluster/members/:name/resources";
    expect((await call("GET", "/1.0/cluster/members/m1/resources", undefined, resPath)).status).toBe(200);
    expect((await call("PUT", "/1.0/cluster/members/m1/resources", { cpu: 1 }, resPath)).status).toBe(400);
    expect(
      (await call("PUT", "/1.0/cluster/members/m2/resources", memberResources(4, 16), resPath)).status,
    ).toBe(200);
    expect(
      (await call("GET", "/1.0/cluster/members/m2/resources", undefined, resPath)).body.metadata,
    ).toMatchObject({
      cpu: { total: 4 },
    });
    const derived = (await call("GET", "/1.0/cluster/members/m2/inventories")).body.metadata as {
      inventories: Record<string, { total: number; derived: boolean; allocation_ratio: number }>;
    };
    expect(derived.inventories.VCPU).toMatchObject({ total: 4, derived: true, allocation_ratio: 16 });
    expect(
      (await call("PUT", "/1.0/cluster/members/ghost/resources", memberResources(), resPath)).status,
    ).toBe(404);

    expect(
      (await call("POST", "/1.0/cluster/members/m2/state", { action: "evacuate" }, statePath)).status,
    ).toBe(200);
    expect((await call("GET", "/1.0/cluster/members/m2")).body.metadata).toMatchObject({
      status: "Evacuated",
    });
    expect(
      (await call("POST", "/1.0/cluster/members/m2/state", { action: "restore" }, statePath)).status,
    ).toBe(200);
    expect(
      (await call("POST", "/1.0/cluster/members/m2/state", { action: "reboot" }, statePath)).status,
    ).toBe(400);

    const m = "/1.0/cluster/members/:name";
    const renamed = await call("POST", "/1.0/cluster/members/m2", { server_name: "m2b" }, m);
    expect(renamed.status).toBe(201);
    expect(renamed.headers.get("location")).toBe("/1.0/cluster/members/m2b");
    expect((await call("POST", "/1.0/cluster/members/m2b", { server_name: "m1" }, m)).status).toBe(409);
    expect((await call("POST", "/1.0/cluster/members/m2", { server_name: "m5" }, m)).status).toBe(404);
    expect((await call("DELETE", "/1.0/cluster/members/m2b", undefined, m)).status).toBe(200);
    expect((await call("DELETE", "/1.0/cluster/members/m2b", undefined, m)).status).toBe(404);
  });

  it("inventories: generation-checked PUTs, single class, delete", async () => {
    const base = "/1.0/cluster/members/:name/inventories";
    const one = "/1.0/cluster/members/:name/inventories/:class";
    const inv = await call("GET", "/1.0/cluster/members/m1/inventories", undefined, base);
    const generation = (inv.body.metadata as { generation: number }).generation;
    const put = await call(
      "PUT",
      "/1.0/cluster/members/m1/inventories",
      {
        generation,
        inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 8192 }, DISK_GB: { total: 100 } },
      },
      base,
    );
    expect(put.status).toBe(200);
    const stale = await call(
      "PUT",
      "/1.0/cluster/members/m1/inventories",
      { generation, inventories: {} },
      base,
    );
    expect(stale.status).toBe(409);
    expect(
      (
        await call(
          "PUT",
          "/1.0/cluster/members/m1/inventories",
          { generation: 0, inventories: { VCPU: { total: 0 } } },
          base,
        )
      ).status,
    ).toBe(400);
    const vcpu = await call("GET", "/1.0/cluster/members/m1/inventories/VCPU", undefined, one);
    expect(vcpu.body.metadata).toMatchObject({ total: 4, used: 0 });
    const listed = (await call("GET", "/1.0/cluster/members/m1/inventories", undefined, base)).body
      .metadata as { inventories: Record<string, Record<string, unknown>> };
    expect(listed.inventories.VCPU).toMatchObject({ total: 4, used: 0, forthcoming: 0, derived: false });
    // recursion=2: every member with its fill in one answer.
    const fill = (await call("GET", "/1.0/cluster/members?recursion=2")).body.metadata as {
      server_name: string;
      instance_count: number;
      inventories: Record<string, Record<string, unknown>>;
    }[];
    expect(fill.map((m) => m.server_name)).toEqual(["m1"]);
    expect(fill[0]).toMatchObject({ status: "Online", instance_count: 0 });
    expect(fill[0]!.inventories.VCPU).toEqual({
      total: 4,
      reserved: 0,
      min_unit: 1,
      max_unit: 2147483647,
      step_size: 1,
      allocation_ratio: 1,
      derived: false,
      used: 0,
      forthcoming: 0,
      capacity: 4,
    });
    expect((await call("GET", "/1.0/cluster/members/m1/inventories/PCPU", undefined, one)).status).toBe(404);
    await call("POST", "/1.0/resource-classes", { name: "CUSTOM_GOLD" });
    const current = (await call("GET", "/1.0/cluster/members/m1/inventories")).body.metadata as {
      generation: number;
    };
    const gold = await call(
      "PUT",
      "/1.0/cluster/members/m1/inventories/CUSTOM_GOLD",
      { generation: current.generation, total: 2 },
      one,
    );
    expect(gold.status).toBe(200);
    expect(
      (await call("PUT", "/1.0/cluster/members/m1/inventories/CUSTOM_GOLD", { generation: 0, total: 2 }, one))
        .status,
    ).toBe(409);
    expect(
      (await call("DELETE", "/1.0/cluster/members/m1/inventories/CUSTOM_GOLD", undefined, one)).status,
    ).toBe(200);
    expect(
      (await call("DELETE", "/1.0/cluster/members/m1/inventories/CUSTOM_GOLD", undefined, one)).status,
    ).toBe(404);
  });

  it("cluster groups: CRUD with member lists", async () => {
    const created = await call("POST", "/1.0/cluster/groups", { name: "gpu", members: ["m1"] });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ name: "gpu", description: "", members: ["m1"] });
    expect((await call("POST", "/1.0/cluster/groups", { name: "gpu" })).status).toBe(409);
    // LXD's default group always exists and holds every member.
    expect((await call("GET", "/1.0/cluster/groups")).body.metadata).toEqual([
      "/1.0/cluster/groups/default",
      "/1.0/cluster/groups/gpu",
    ]);
    const p = "/1.0/cluster/groups/:name";
    expect((await call("GET", "/1.0/cluster/groups/default", undefined, p)).body.metadata).toMatchObject({
      members: ["m1"],
    });
    const undeletable = await call("DELETE", "/1.0/cluster/groups/default", undefined, p);
    expect([undeletable.status, undeletable.body.error]).toEqual([
      403,
      "The 'default' cluster group cannot be deleted",
    ]);
    expect((await call("GET", "/1.0/cluster/groups/gpu", undefined, p)).body.metadata).toMatchObject({
      members: ["m1"],
    });
    expect((await call("GET", "/1.0/cluster/groups/none", undefined, p)).status).toBe(404);
    expect(
      (await call("PUT", "/1.0/cluster/groups/gpu", { description: "GPUs", members: [] }, p)).status,
    ).toBe(200);
    expect((await call("PATCH", "/1.0/cluster/groups/gpu", { members: ["m1"] }, p)).status).toBe(200);
    expect((await call("PATCH", "/1.0/cluster/groups/gpu", { members: ["ghost"] }, p)).status).toBe(404);
    expect((await call("GET", "/1.0/cluster/groups/gpu")).body.metadata).toEqual({
      name: "gpu",
      description: "GPUs",
      members: ["m1"],
    });
    expect((await call("DELETE", "/1.0/cluster/groups/gpu", undefined, p)).status).toBe(409);
    expect((await call("POST", "/1.0/cluster/groups/gpu", { name: "gpu2" }, p)).status).toBe(409);
    await call("PATCH", "/1.0/cluster/groups/gpu", { members: [] }, p);
    expect((await call("POST", "/1.0/cluster/groups/gpu", { name: "gpu2" }, p)).status).toBe(201);
    expect((await call("POST", "/1.0/cluster/groups/gpu", { name: "gpu3" }, p)).status).toBe(404);
    expect((await call("DELETE", "/1.0/cluster/groups/gpu2", undefined, p)).status).toBe(200);
  });

  it("resource classes: standard + custom, conflicts", async () => {
    const list = await call("GET", "/1.0/resource-classes?recursion=1");
    const names = (list.body.metadata as { name: string; standard: boolean }[]).map((c) => c.name);
    expect(names).toContain("VCPU");
    expect(names).toContain("CUSTOM_GOLD");
    expect((await call("GET", "/1.0/resource-classes")).status).toBe(200);
    const p = "/1.0/resource-classes/:name";
    expect((await call("GET", "/1.0/resource-classes/VCPU", undefined, p)).body.metadata).toEqual({
      name: "VCPU",
      standard: true,
    });
    expect((await call("GET", "/1.0/resource-classes/CUSTOM_NOPE", undefined, p)).status).toBe(404);
    expect((await call("POST", "/1.0/resource-classes", { name: "CUSTOM_GOLD" })).status).toBe(409);
    // One CUSTOM_ rule (@berth/resources): POST and PUT refuse a bad name with the same Placement text.
    for (const name of ["lowercase", "VCPU"]) {
      const text = `JSON does not validate: '${name}' does not match '^CUSTOM_[A-Z0-9_]+$'\n\nFailed validating 'pattern' in schema['properties']['name']`;
      const posted = await call("POST", "/1.0/resource-classes", { name });
      const put = await call("PUT", `/1.0/resource-classes/${name}`, undefined, p);
      expect([posted.status, posted.body.error]).toEqual([400, text]);
      if (name !== "VCPU") expect([put.status, put.body.error]).toEqual([400, text]);
    }
    expect((await call("PUT", "/1.0/resource-classes/CUSTOM_SILVER", undefined, p)).status).toBe(201);
    expect((await call("PUT", "/1.0/resource-classes/CUSTOM_SILVER", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/resource-classes/VCPU", undefined, p)).status).toBe(400);
    expect((await call("DELETE", "/1.0/resource-classes/CUSTOM_SILVER", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/resource-classes/CUSTOM_SILVER", undefined, p)).status).toBe(404);
  });

  it("flavors: CRUD with Nova's extra-spec validation", async () => {
    const created = await call("POST", "/1.0/flavors", {
      name: "small",
      vcpus: 1,
      memory_mb: 1024,
      disk_gb: 10,
    });
    expect(created.status).toBe(201);
    expect(
      (await call("POST", "/1.0/flavors", { name: "small", vcpus: 1, memory_mb: 1024, disk_gb: 10 })).status,
    ).toBe(409);
    const badSpec = await call("POST", "/1.0/flavors", {
      name: "bad",
      vcpus: 1,
      memory_mb: 1,
      disk_gb: 0,
      extra_specs: { "resources:VCPU": "x" },
    });
    expect(badSpec.status).toBe(400);
    expect(badSpec.body.error).toContain("'x' is not a valid integer value.");
    expect((await call("GET", "/1.0/flavors")).body.metadata).toEqual(["/1.0/flavors/small"]);
    const p = "/1.0/flavors/:name";
    expect((await call("GET", "/1.0/flavors/small", undefined, p)).body.metadata).toMatchObject({ vcpus: 1 });
    expect((await call("GET", "/1.0/flavors/big", undefined, p)).status).toBe(404);
    expect(
      (
        await call(
          "PUT",
          "/1.0/flavors/small",
          { description: "", vcpus: 2, memory_mb: 2048, disk_gb: 10, extra_specs: {} },
          p,
        )
      ).status,
    ).toBe(200);
    expect(
      (await call("PATCH", "/1.0/flavors/small", { extra_specs: { "trait:CUSTOM_SSD": "required" } }, p))
        .status,
    ).toBe(200);
    expect((await call("GET", "/1.0/flavors/small")).body.metadata).toMatchObject({
      vcpus: 2,
      extra_specs: { "trait:CUSTOM_SSD": "required" },
    });
    expect((await call("PATCH", "/1.0/flavors/small", { vcpus: 0 }, p)).status).toBe(400);
    const reset = { description: "", vcpus: 1, memory_mb: 1024, disk_gb: 10, extra_specs: {} };
    expect((await call("PUT", "/1.0/flavors/small", reset, p)).status).toBe(200);
    await call("POST", "/1.0/flavors", { name: "tmp", vcpus: 1, memory_mb: 1, disk_gb: 0 });
    expect((await call("DELETE", "/1.0/flavors/tmp", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/flavors/tmp", undefined, p)).status).toBe(404);
  });

  it("projects: CRUD, limits, used_by", async () => {
    expect(
      (await call("POST", "/1.0/projects", { name: "p1", config: { "limits.instances": "1" } })).status,
    ).toBe(201);
    expect((await call("POST", "/1.0/projects", { name: "p1" })).status).toBe(409);
    expect((await call("POST", "/1.0/projects", { name: "bad name" })).status).toBe(400);
    expect((await call("GET", "/1.0/projects")).body.metadata).toEqual([
      "/1.0/projects/default",
      "/1.0/projects/p1",
    ]);
    const p = "/1.0/projects/:name";
    expect((await call("GET", "/1.0/projects/p1", undefined, p)).body.metadata).toMatchObject({
      used_by: [],
    });
    expect((await call("GET", "/1.0/projects/p9", undefined, p)).status).toBe(404);
    expect(
      (await call("PUT", "/1.0/projects/p1", { description: "x", config: { "limits.instances": "1" } }, p))
        .status,
    ).toBe(200);
    expect((await call("PATCH", "/1.0/projects/p1", { description: "y" }, p)).status).toBe(200);
    expect((await call("PATCH", "/1.0/projects/p1", { config: { "limits.cpu": "many" } }, p)).status).toBe(
      400,
    );
    expect((await call("DELETE", "/1.0/projects/default", undefined, p)).status).toBe(403);
    expect((await call("POST", "/1.0/projects", { name: "p2" })).status).toBe(201);
    expect((await call("POST", "/1.0/projects/p2", { name: "p1" }, p)).status).toBe(409);
    expect((await call("POST", "/1.0/projects/p2", { name: "p3" }, p)).status).toBe(201);
    expect((await call("DELETE", "/1.0/projects/p3", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/projects/p3", undefined, p)).status).toBe(404);
  });

  it("profiles: CRUD in a project", async () => {
    const created = await call("POST", "/1.0/profiles?project=p1", {
      name: "web",
      config: { "limits.cpu": "1" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/1.0/profiles/web?project=p1");
    expect((await call("POST", "/1.0/profiles?project=p1", { name: "web" })).status).toBe(409);
    expect((await call("POST", "/1.0/profiles?project=nowhere", { name: "web" })).status).toBe(404);
    expect((await call("GET", "/1.0/profiles?project=p1")).body.metadata).toEqual([
      "/1.0/profiles/web?project=p1",
    ]);
    const p = "/1.0/profiles/:name";
    expect((await call("GET", "/1.0/profiles/web?project=p1", undefined, p)).body.metadata).toMatchObject({
      project: "p1",
    });
    expect((await call("GET", "/1.0/profiles/web", undefined, p)).status).toBe(404);
    expect(
      (await call("PUT", "/1.0/profiles/web?project=p1", { description: "", config: {}, devices: {} }, p))
        .status,
    ).toBe(200);
    expect(
      (await call("PATCH", "/1.0/profiles/web?project=p1", { config: { "limits.memory": "1GiB" } }, p))
        .status,
    ).toBe(200);
    expect(
      (await call("PATCH", "/1.0/profiles/web?project=p1", { config: { "limits.memory": 5 } }, p)).status,
    ).toBe(400);
    expect((await call("DELETE", "/1.0/profiles/default", undefined, p)).status).toBe(403);
    expect((await call("POST", "/1.0/profiles/web?project=p1", { name: "web2" }, p)).status).toBe(201);
    expect((await call("POST", "/1.0/profiles/web?project=p1", { name: "web3" }, p)).status).toBe(404);
    expect((await call("DELETE", "/1.0/profiles/web2?project=p1", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/profiles/web2?project=p1", undefined, p)).status).toBe(404);
  });

  it("images and aliases", async () => {
    const created = await call("POST", "/1.0/images", {
      fingerprint: FINGERPRINT,
      architecture: "x86_64",
      aliases: [{ name: "ubuntu/24.04", description: "" }],
    });
    expect(created.status).toBe(201);
    expect(
      (await call("POST", "/1.0/images", { fingerprint: FINGERPRINT, architecture: "x86_64" })).status,
    ).toBe(409);
    expect((await call("POST", "/1.0/images", { fingerprint: "short", architecture: "x86_64" })).status).toBe(
      400,
    );
    await call("POST", "/1.0/images", { fingerprint: OTHER_FINGERPRINT, architecture: "aarch64" });
    expect((await call("GET", "/1.0/images")).body.metadata).toHaveLength(2);
    const p = "/1.0/images/:fingerprint";
    expect((await call("GET", `/1.0/images/${FINGERPRINT}`, undefined, p)).body.metadata).toMatchObject({
      architecture: "x86_64",
    });
    expect((await call("GET", `/1.0/images/${"c".repeat(64)}`, undefined, p)).status).toBe(404);
    expect(
      (await call("PUT", `/1.0/images/${FINGERPRINT}`, { description: "U", properties: { os: "ubuntu" } }, p))
        .status,
    ).toBe(200);
    expect(
      (await call("PATCH", `/1.0/images/${FINGERPRINT}`, { properties: { release: "noble" } }, p)).status,
    ).toBe(200);
    expect((await call("GET", `/1.0/images/${FINGERPRINT}`)).body.metadata).toMatchObject({
      properties: { os: "ubuntu", release: "noble" },
    });

    const a = "/1.0/images/aliases/:alias";
    expect((await call("GET", "/1.0/images/aliases")).body.metadata).toEqual([
      "/1.0/images/aliases/ubuntu%2F24.04",
    ]);
    expect(
      (await call("POST", "/1.0/images/aliases", { name: "arm", target: OTHER_FINGERPRINT })).status,
    ).toBe(201);
    expect((await call("POST", "/1.0/images/aliases", { name: "arm", target: FINGERPRINT })).status).toBe(
      409,
    );
    expect((await call("POST", "/1.0/images/aliases", { name: "x", target: "d".repeat(64) })).status).toBe(
      404,
    );
    expect((await call("GET", "/1.0/images/aliases/arm", undefined, a)).body.metadata).toMatchObject({
      target: OTHER_FINGERPRINT,
    });
    expect((await call("GET", "/1.0/images/aliases/nope", undefined, a)).status).toBe(404);
    expect(
      (await call("PUT", "/1.0/images/aliases/arm", { description: "", target: FINGERPRINT }, a)).status,
    ).toBe(200);
    expect((await call("PATCH", "/1.0/images/aliases/arm", { target: OTHER_FINGERPRINT }, a)).status).toBe(
      200,
    );
    expect((await call("POST", "/1.0/images/aliases/arm", { name: "arm64" }, a)).status).toBe(201);
    expect((await call("GET", "/1.0/images/aliases/arm64")).body.metadata).toMatchObject({
      target: OTHER_FINGERPRINT,
    });
    expect((await call("DELETE", "/1.0/images/aliases/arm64", undefined, a)).status).toBe(200);
    expect((await call("DELETE", "/1.0/images/aliases/arm64", undefined, a)).status).toBe(404);
    expect((await call("DELETE", `/1.0/images/${OTHER_FINGERPRINT}`, undefined, p)).status).toBe(200);
    expect((await call("DELETE", `/1.0/images/${OTHER_FINGERPRINT}`, undefined, p)).status).toBe(404);
  });

  it("placement groups: CRUD in a project", async () => {
    const created = await call("POST", "/1.0/placement-groups", { name: "db", policy: "spread" });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({
      config: { policy: "spread", rigor: "strict" },
      project: "default",
      used_by: [],
    });
    expect((await call("POST", "/1.0/placement-groups", { name: "db", policy: "spread" })).status).toBe(409);
    expect((await call("POST", "/1.0/placement-groups", { name: "x", policy: "random" })).status).toBe(400);
    expect((await call("GET", "/1.0/placement-groups")).body.metadata).toEqual(["/1.0/placement-groups/db"]);
    const p = "/1.0/placement-groups/:name";
    expect((await call("GET", "/1.0/placement-groups/db", undefined, p)).status).toBe(200);
    expect((await call("GET", "/1.0/placement-groups/db?project=p1", undefined, p)).status).toBe(404);
    expect(
      (
        await call(
          "PUT",
          "/1.0/placement-groups/db",
          { description: "", policy: "spread", rigor: "permissive" },
          p,
        )
      ).status,
    ).toBe(200);
    expect((await call("PATCH", "/1.0/placement-groups/db", { rigor: "strict" }, p)).status).toBe(200);
    await call("POST", "/1.0/placement-groups", { name: "tmp", policy: "compact" });
    expect((await call("POST", "/1.0/placement-groups/tmp", { name: "db" }, p)).status).toBe(409);
    expect((await call("POST", "/1.0/placement-groups/tmp", { name: "tmp2" }, p)).status).toBe(201);
    expect((await call("DELETE", "/1.0/placement-groups/tmp2", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/placement-groups/tmp2", undefined, p)).status).toBe(404);
  });

  it("instances: create, target, dry run, 507, edit, rename, move, delete", async () => {
    await addMembers(server.local(), [{ name: "m3", cpus: 4, memoryMb: 8192, diskGb: 100 }]);
    await call("PUT", "/1.0/cluster/members/m1/state", memberState(), "/1.0/cluster/members/:name/state");
    const dry = await call("POST", "/1.0/instances?dry_run=true", { name: "c1", flavor: "small" });
    expect(dry.status).toBe(200);
    expect(dry.body.metadata).toMatchObject({ decision: { outcome: "placed" }, scriptlet_ran: false });
    expect((await call("GET", "/1.0/instances")).body.metadata).toEqual([]);
    const created = await call("POST", "/1.0/instances?target=m3", { name: "c1", flavor: "small" });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({
      name: "c1",
      location: "m3",
      flavor: "small",
      status: "Stopped",
    });
    expect(created.headers.get("location")).toBe("/1.0/instances/c1");
    expect((await call("POST", "/1.0/instances", { name: "c1" })).status).toBe(409);
    expect((await call("POST", "/1.0/instances?target=ghost", { name: "c2" })).status).toBe(404);
    expect((await call("POST", "/1.0/instances", { name: "c2", flavor: "ghost" })).status).toBe(404);
    expect((await call("POST", "/1.0/instances", { name: "9bad" })).status).toBe(400);
    expect((await call("POST", "/1.0/instances", { name: "c2", flavour: "small" })).status).toBe(400);
    expect((await call("POST", "/1.0/instances?dry_run=maybe", { name: "c2" })).status).toBe(400);
    const full = await call("POST", "/1.0/instances", { name: "huge", config: { "limits.cpu": "64" } });
    expect(full.status).toBe(507);
    expect(full.body.error).toContain("VCPU");
    const bigDry = await call("POST", "/1.0/instances?dry_run=1", {
      name: "huge",
      config: { "limits.cpu": "64" },
    });
    expect(bigDry.body.metadata).toMatchObject({ decision: { outcome: "rejected", error_code: 507 } });
    expect((bigDry.body.metadata as { rejections: { code: string }[] }).rejections[0]).toMatchObject({
      code: "capacity:VCPU",
      capacity: true,
    });
    const why = "/1.0/instances/:name/placement";
    expect((await call("GET", "/1.0/instances/c1/placement", undefined, why)).body.metadata).toMatchObject({
      instance: "c1",
      project: "default",
      member: "m3",
      reason: "new",
      decided_by: "target",
      target: "m3",
      candidates: null,
      rejections: [],
      log: [],
      log_dropped: 0,
      scriptlet: null,
    });
    expect((await call("GET", "/1.0/instances/c9/placement", undefined, why)).status).toBe(404);

    expect((await call("GET", "/1.0/instances?recursion=1")).body.metadata).toHaveLength(1);
    const p = "/1.0/instances/:name";
    expect((await call("GET", "/1.0/instances/c1", undefined, p)).body.metadata).toMatchObject({
      location: "m3",
    });
    expect((await call("GET", "/1.0/instances/c9", undefined, p)).status).toBe(404);
    expect((await call("PATCH", "/1.0/instances/c1", { description: "edited" }, p)).status).toBe(200);
    expect(
      (await call("PUT", "/1.0/instances/c1", { description: "x", config: { "limits.cpu": "64" } }, p))
        .status,
    ).toBe(507);
    expect((await call("PUT", "/1.0/instances/c1", { config: { "limits.cpu": 1 } }, p)).status).toBe(400);

    const moved = await call("POST", "/1.0/instances/c1?target=m1", {}, p);
    expect(moved.status).toBe(200);
    expect(moved.body.metadata).toMatchObject({ location: "m1", resources: { VCPU: 1 } });
    expect((await call("GET", "/1.0/instances/c1/placement", undefined, why)).body.metadata).toMatchObject({
      member: "m1",
      reason: "relocation",
      decided_by: "target",
    });
    const renamed = await call("POST", "/1.0/instances/c1", { name: "c1b" }, p);
    expect(renamed.status).toBe(201);
    expect(renamed.headers.get("location")).toBe("/1.0/instances/c1b");
    expect((await call("POST", "/1.0/instances/c1b", {}, p)).status).toBe(400);
    expect((await call("POST", "/1.0/instances/c1b?target=ghost", {}, p)).status).toBe(404);
    expect((await call("DELETE", "/1.0/instances/c1b", undefined, p)).status).toBe(200);
    expect((await call("DELETE", "/1.0/instances/c1b", undefined, p)).status).toBe(404);
  });

  it("project limits answer 4xx, not 5xx", async () => {
    expect((await call("POST", "/1.0/instances?project=p1", { name: "one" })).status).toBe(201);
    const over = await call("POST", "/1.0/instances?project=p1", { name: "two" });
    expect([403, 409, 507]).toContain(over.status);
    expect(over.body.error).toBeTruthy();
  });

  it("reservations: forthcoming create, address by UUID, commit", async () => {
    const reserved = await call("POST", "/1.0/instances", { forthcoming: true, flavor: "small" });
    expect(reserved.status).toBe(201);
    const meta = reserved.body.metadata as {
      uuid: string;
      name: string;
      forthcoming: boolean;
      status: string;
    };
    expect(meta).toMatchObject({ name: "", forthcoming: true, status: "Reserved" });
    const p = "/1.0/instances/:name";
    expect((await call("GET", `/1.0/instances/${meta.uuid}`, undefined, p)).status).toBe(200);
    const c = "/1.0/instances/:name/commit";
    expect((await call("POST", `/1.0/instances/${meta.uuid}/commit`, {}, c)).status).toBe(400);
    const committed = await call("POST", `/1.0/instances/${meta.uuid}/commit`, { name: "real1" }, c);
    expect(committed.status).toBe(200);
    expect(committed.body.metadata).toMatchObject({ name: "real1", forthcoming: false });
    expect((await call("POST", "/1.0/instances/real1/commit", {}, c)).status).toBe(409);
    expect((await call("POST", "/1.0/instances/nothing/commit", undefined, c)).status).toBe(404);
  });

  it("an instance stored without a decision record says so on /placement (404)", async () => {
    // As a row from before decisions were recorded: written straight through the Store port.
    await server.engine.store.claim({ create: [newInstance("legacy1", "m1", {}, { decision: null })] });
    const answer = await call(
      "GET",
      "/1.0/instances/legacy1/placement",
      undefined,
      "/1.0/instances/:name/placement",
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe(
      'No placement decision is recorded for instance "legacy1" in project "default" (it was stored before decisions were recorded)',
    );
    expect((await call("DELETE", "/1.0/instances/legacy1", undefined, "/1.0/instances/:name")).status).toBe(
      200,
    );
  });

  it("bulk create: all or nothing", async () => {
    const ok = await call("POST", "/1.0/instances/bulk", {
      instances: [
        { name: "b1", flavor: "small" },
        { name: "b2", flavor: "small" },
      ],
    });
    expect(ok.status).toBe(200);
    expect((ok.body.metadata as { placements: unknown[] }).placements).toHaveLength(2);
    const failed = await call("POST", "/1.0/instances/bulk", {
      instances: [
        { name: "b3", flavor: "small" },
        { name: "b4", config: { "limits.cpu": "512" } },
      ],
    });
    expect(failed.status).toBe(507);
    expect(failed.body.metadata).toMatchObject({ index: 1, name: "b4" });
    expect((await call("GET", "/1.0/instances/b3")).status).toBe(404);
    expect((await call("POST", "/1.0/instances/bulk", { instances: [] })).status).toBe(400);
    const dup = await call("POST", "/1.0/instances/bulk", { instances: [{ name: "d1" }, { name: "d1" }] });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toContain("instances[1].name");
  });

  it("rebalance: plan (dry) and apply", async () => {
    const plan = await call("GET", "/1.0/cluster/rebalance");
    expect(plan.status).toBe(200);
    expect(plan.body.metadata).toMatchObject({ applied: false });
    const applied = await call("POST", "/1.0/cluster/rebalance");
    expect(applied.status).toBe(200);
    expect(applied.body.metadata).toMatchObject({ applied: true });
    const automatic = await call("GET", "/1.0/cluster/rebalance/automatic");
    expect(automatic.status).toBe(200);
    expect(AutomaticRebalancePreviewSchema.safeParse(automatic.body.metadata).success).toBe(true);
    expect(automatic.body.metadata).toMatchObject({ enabled: false, interval: 0, threshold: 20, batch: 1 });
  });

  it("capacity: how many more of a body fit (exactness: capacity.test.ts)", async () => {
    const answer = await call("POST", "/1.0/cluster/capacity", { config: { "limits.cpu": "1" } });
    expect(answer.status).toBe(200);
    expect((answer.body.metadata as { instances: number }).instances).toBeGreaterThan(0);
  });

  it("metrics and the OpenAPI document", async () => {
    const metrics = await server.fetch("/1.0/metrics", { token: server.adminToken });
    seen.add("GET /1.0/metrics");
    expect(metrics.headers.get("content-type")).toContain("text/plain");
    const text = await metrics.text();
    expect(text).toMatch(/berth_placements_total\{operation="create"\} \d+/);
    expect(text).toMatch(
      /berth_placement_failures_total\{operation="create",kind="insufficient_capacity"\} \d+/,
    );
    expect(text).toContain("berth_http_request_duration_seconds_bucket");
    expect(text).toMatch(/berth_placement_duration_seconds_count\{operation="create"\} [1-9]/);
    expect(text).not.toContain("berth_engine_");
    expect(text).toMatch(/berth_member_resource_used\{member="m3",resource_class="VCPU"\}/);
    expect(text).toMatch(/berth_member_resource_capacity\{member="m3",resource_class="VCPU"\} 4/);
    const doc = await server.tcp(server.adminToken).openApi();
    seen.add("GET /1.0/openapi.json");
    expect(doc.openapi).toBe("3.1.0");
  });

  it("answers malformed requests with clear 4xx", async () => {
    const badJson = await call("POST", "/1.0/projects", "{not json");
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toContain("Invalid JSON");
    expect((await call("POST", "/1.0/projects", "")).status).toBe(400);
    expect((await call("POST", "/1.0/projects", "[1,2]")).status).toBe(400);
    const big = await call("POST", "/1.0/projects", { name: "big", description: "x".repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ type: "error", error_code: 413 });
    const unknown = await call("GET", "/1.0/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe("error");
    expect((await call("GET", "/1.0/instances?project=bad%20name")).status).toBe(400);
    expect((await call("GET", "/1.0/instances?project=nowhere")).status).toBe(404);
    const wrongVerb = await call("DELETE", "/1.0/flavors");
    expect(wrongVerb.status).toBe(405);
    // hono/method-not-allowed lists HEAD beside GET: Hono answers HEAD on every GET route.
    expect(wrongVerb.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(wrongVerb.body).toMatchObject({
      type: "error",
      error_code: 405,
      error: "Method DELETE not allowed on /1.0/flavors (allowed: GET, HEAD, POST)",
    });
    const head = await server.fetch("/1.0/flavors", { method: "HEAD", token: server.adminToken });
    expect(head.status).toBe(200);
    const wrongOnItem = await call("POST", "/1.0/cluster/members/m1/resources");
    expect(wrongOnItem.status).toBe(405);
    expect(wrongOnItem.headers.get("allow")).toBe("GET, HEAD, PUT");
  });

  it("honours and echoes X-Request-Id", async () => {
    const response = await server.fetch("/1.0", {
      token: server.adminToken,
      headers: { "x-request-id": "abc-123" },
    });
    expect(response.headers.get("x-request-id")).toBe("abc-123");
    expect(server.logs.some((l) => l.req_id === "abc-123")).toBe(true);
    for (const insane of ["has space", "x".repeat(129), "semi;colon"]) {
      const replaced = await server.fetch("/1.0", {
        token: server.adminToken,
        headers: { "x-request-id": insane },
      });
      expect(replaced.headers.get("x-request-id")).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });

  it("LXD client endpoints: cluster, instance state and full view, exec refused, operations", async () => {
    expect((await call("GET", "/1.0/cluster")).body.metadata).toMatchObject({
      enabled: true,
      member_config: [],
    });
    const lxd = { "user-agent": "LXD 5.0.2" };
    const created = await call(
      "POST",
      "/1.0/instances?target=m1",
      { name: "s1", profiles: null },
      undefined,
      lxd,
    );
    expect(created.status).toBe(202);
    const s = "/1.0/instances/:name/state";
    expect((await call("GET", "/1.0/instances/s1/state", undefined, s)).body.metadata).toMatchObject({
      status: "Stopped",
      processes: 0,
    });
    expect((await call("GET", "/1.0/instances/s9/state", undefined, s)).status).toBe(404);
    const start = await call("PUT", "/1.0/instances/s1/state", { action: "start" }, s);
    expect([start.status, start.body.error]).toEqual([
      400,
      "Berth places instances and does not run them: changing its state (start, stop, restart, freeze) is done by LXD or Incus on the instance's member",
    ]);
    const exec = await call(
      "POST",
      "/1.0/instances/s1/exec",
      { command: ["sh"] },
      "/1.0/instances/:name/exec",
    );
    expect(exec.body.error).toBe(
      "Berth places instances and does not run them: running commands (exec) is done by LXD or Incus on the instance's member",
    );
    const full = await call("GET", "/1.0/instances/s1?recursion=1", undefined, "/1.0/instances/:name");
    expect(full.body.metadata).toMatchObject({ name: "s1", state: { status: "Stopped" }, snapshots: [] });
    const filtered = await call("GET", "/1.0/instances?filter=location%20eq%20m1&recursion=2");
    const located = filtered.body.metadata as { name: string; location: string }[];
    expect(located.map((i) => i.name)).toContain("s1");
    expect(located.every((i) => i.location === "m1")).toBe(true);

    const operation = created.body.operation as string;
    const o = "/1.0/operations/:id";
    expect((await call("GET", "/1.0/operations")).body.metadata).toEqual({ success: [operation] });
    expect((await call("GET", operation, undefined, o)).body.metadata).toMatchObject({ status: "Success" });
    expect((await call("GET", `${operation}/wait?timeout=1`, undefined, `${o}/wait`)).status).toBe(200);
    expect((await call("DELETE", operation, undefined, o)).status).toBe(400);
    expect((await call("DELETE", "/1.0/instances/s1", undefined, "/1.0/instances/:name")).status).toBe(200);
  });

  it("warnings: listed; an unknown UUID is a 404 and a bad status a 400, in LXD's envelope", async () => {
    const w = "/1.0/warnings/:uuid";
    const list = await call("GET", "/1.0/warnings");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.metadata)).toBe(true);
    const ghost = "/1.0/warnings/00000000-0000-4000-8000-000000000000";
    expect((await call("GET", ghost, undefined, w)).body).toMatchObject({
      error_code: 404,
      error: "Warning not found",
    });
    expect((await call("PUT", ghost, { status: "acknowledged" }, w)).status).toBe(404);
    expect((await call("PATCH", ghost, { status: "resolved" }, w)).status).toBe(400);
    expect((await call("DELETE", ghost, undefined, w)).status).toBe(404);
  });

  it("exercised every route of the route table", () => {
    const missing = allRoutes
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !seen.has(r) && !r.includes("/auth/"));
    expect(missing).toEqual([]);
  });
});
