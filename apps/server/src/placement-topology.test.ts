/**
 * Issue #31 (first half) over HTTP against a real berthd on SQLite:
 * member topology keys, placement groups in LXD 6.6's wire format, and
 * placement groups that spread per rack (`topology=rack`). Six members in
 * three racks (A1: a1 a2, B1: b1 b2, C1: c1 c2).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  dryRunLogs,
  type Envelope,
  expectRefusal,
  memberState,
  startTestServer,
  type TestServer,
} from "./testing/test-server.fixture.js";

const MEMBERS = ["a1", "a2", "b1", "b2", "c1", "c2"];
const rackOf = (member: string) => `${member[0]!.toUpperCase()}1`;

describe("placement groups over a topology key", () => {
  let server: TestServer;
  let project = 0;
  /** Each test works in a project of its own, so groups and instances do not meet. */
  let current = "default";

  const call = (method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope }> =>
    server.call(method, withProject(path), body);
  const withProject = (path: string) =>
    path.startsWith("/1.0/cluster") ? path : `${path}${path.includes("?") ? "&" : "?"}project=${current}`;
  const locationOf = async (name: string) =>
    (await call("GET", `/1.0/instances/${name}`)).body.metadata.location;
  const create = (name: string, group = "pg") =>
    call("POST", "/1.0/instances", {
      name,
      config: { "placement.group": group, "limits.cpu": "1", "limits.memory": "1GiB" },
    });

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of MEMBERS) {
      expect(
        (await call("POST", "/1.0/cluster/members", { server_name: name, architecture: "x86_64" })).status,
      ).toBe(201);
      const { generation } = (await call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata;
      await call("PUT", `/1.0/cluster/members/${name}/inventories`, {
        generation,
        inventories: { VCPU: { total: 16 }, MEMORY_MB: { total: 65536 }, DISK_GB: { total: 500 } },
      });
    }
    // Half set the key as `lxc cluster set` does (GET, then PUT the member back), half by PATCH.
    for (const [index, name] of MEMBERS.entries()) {
      if (index % 2 === 0) {
        const member = (await call("GET", `/1.0/cluster/members/${name}`)).body.metadata;
        const put = {
          roles: member.roles,
          failure_domain: member.failure_domain,
          description: member.description,
          config: { ...member.config, "topology.rack": rackOf(name) },
          groups: member.groups,
        };
        expect((await call("PUT", `/1.0/cluster/members/${name}`, put)).status).toBe(200);
      } else {
        const patch = { config: { "topology.rack": rackOf(name) } };
        expect((await call("PATCH", `/1.0/cluster/members/${name}`, patch)).status).toBe(200);
      }
    }
  });
  afterAll(() => server.close());

  beforeEach(async () => {
    // Evacuations move every project's instances: each test starts from an empty cluster.
    if (project > 0) {
      for (const url of (await call("GET", "/1.0/instances")).body.metadata as string[]) {
        expect((await server.call("DELETE", url)).status).toBe(200);
      }
    }
    project += 1;
    current = `p${project}`;
    expect((await server.call("POST", "/1.0/projects", { name: current, config: {} })).status).toBe(201);
    for (const name of MEMBERS) {
      await server.local().putMemberState(name, memberState() as never);
      const state = (await call("GET", `/1.0/cluster/members/${name}`)).body.metadata.status;
      if (state === "Evacuated")
        await call("POST", `/1.0/cluster/members/${name}/state`, { action: "restore" });
    }
  });

  it("members keep their topology keys; bad names are refused with a 400 naming the rule", async () => {
    expect((await call("GET", "/1.0/cluster/members/b2")).body.metadata.config).toEqual({
      "topology.rack": "B1",
    });
    await expectRefusal(
      server,
      { method: "PATCH", path: "/1.0/cluster/members/a1", body: { config: { "topology.Rack!": "x" } } },
      400,
      'Invalid field "config.topology.Rack!": invalid topology name "Rack!" (allowed: lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters)',
    );
  });

  it("scriptlets see the topology keys in the candidate members' config", async () => {
    const source = `
def instance_placement(request, candidate_members):
    for member in candidate_members:
        log_info(member.server_name, "=", member.config.get("topology.rack", "none"))
    return
`;
    const logs = await dryRunLogs(server, source, { name: "probe", config: { "limits.cpu": "1" } });
    expect(logs).toEqual(expect.arrayContaining(["a1=A1", "b2=B1", "c2=C1"]));
  });

  it("speaks LXD 6.6's placement group format and its validation texts", async () => {
    const created = await call("POST", "/1.0/placement-groups", {
      name: "pg",
      description: "web tier",
      config: { policy: "spread", rigor: "strict", topology: "rack", "user.team": "web" },
    });
    expect(created.status).toBe(201);
    expect((await call("GET", "/1.0/placement-groups/pg")).body.metadata).toEqual({
      name: "pg",
      description: "web tier",
      config: { policy: "spread", rigor: "strict", topology: "rack", "user.team": "web" },
      project: current,
      used_by: [],
    });
    const refusals: [unknown, string][] = [
      [{ name: "x", config: { policy: "spread" } }, 'Missing required config key: "rigor"'],
      [{ name: "x", config: { rigor: "strict" } }, 'Missing required config key: "policy"'],
      [
        { name: "x", config: { policy: "spread", rigor: "strict", zone: "1" } },
        'Invalid placement group key "zone"',
      ],
      [
        { name: "x", config: { policy: "scatter", rigor: "strict" } },
        'Invalid placement group key "policy" value',
      ],
      [
        { name: "x", config: { policy: "spread", rigor: "soft" } },
        'Invalid placement group key "rigor" value',
      ],
      [
        { name: "x", config: { policy: "spread", rigor: "strict", topology: "Rack" } },
        'Invalid placement group key "topology" value: "Rack" is neither "failure_domain" nor a topology name (lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters)',
      ],
      [
        { name: "x", policy: "compact", config: { policy: "spread", rigor: "strict" } },
        'Placement group key "policy" given twice with different values: "compact" as a field, "spread" in config',
      ],
    ];
    for (const [body, error] of refusals) {
      await expectRefusal(
        server,
        { method: "POST", path: withProject("/1.0/placement-groups"), body },
        400,
        error,
      );
    }
    // Berth's earlier format: top-level fields, rigor strict by default; agreeing duplicates are fine.
    expect((await call("POST", "/1.0/placement-groups", { name: "old", policy: "compact" })).status).toBe(
      201,
    );
    expect((await call("GET", "/1.0/placement-groups/old")).body.metadata.config).toEqual({
      policy: "compact",
      rigor: "strict",
    });
    expect(
      (
        await call("POST", "/1.0/placement-groups", {
          name: "both",
          policy: "spread",
          config: { policy: "spread", rigor: "permissive" },
        })
      ).status,
    ).toBe(201);
    // PATCH merges config ("" unsets), PUT replaces it whole (as lxc placement-group set/unset/edit do).
    expect((await call("PATCH", "/1.0/placement-groups/pg", { config: { "user.team": "" } })).status).toBe(
      200,
    );
    expect((await call("GET", "/1.0/placement-groups/pg")).body.metadata.config).toEqual({
      policy: "spread",
      rigor: "strict",
      topology: "rack",
    });
    await expectRefusal(
      server,
      {
        method: "PUT",
        path: withProject("/1.0/placement-groups/pg"),
        body: { config: { policy: "spread" } },
      },
      400,
      'Missing required config key: "rigor"',
    );
    expect(
      (
        await call("PUT", "/1.0/placement-groups/pg", {
          description: "",
          config: { policy: "spread", rigor: "permissive" },
        })
      ).status,
    ).toBe(200);
    expect((await call("GET", "/1.0/placement-groups/pg")).body.metadata).toMatchObject({
      description: "",
      config: { policy: "spread", rigor: "permissive" },
    });
  });

  it("strict spread over rack: three instances in three racks, the fourth refused naming group and key", async () => {
    await call("POST", "/1.0/placement-groups", {
      name: "pg",
      config: { policy: "spread", rigor: "strict", topology: "rack" },
    });
    for (const name of ["w1", "w2", "w3"]) expect((await create(name)).status).toBe(201);
    const racks = await Promise.all(["w1", "w2", "w3"].map(async (name) => rackOf(await locationOf(name))));
    expect(racks.sort()).toEqual(["A1", "B1", "C1"]);
    const refused = await create("w4");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error).toContain('placement group "pg"');
    expect(refused.body.error).toContain('topology key "rack"');
    expect(refused.body.error).toContain('values in use: "A1", "B1", "C1"');
  });

  it("permissive spread over rack: six land two per rack", async () => {
    await call("POST", "/1.0/placement-groups", {
      name: "pg",
      config: { policy: "spread", rigor: "permissive", topology: "rack" },
    });
    const names = ["v1", "v2", "v3", "v4", "v5", "v6"];
    for (const name of names) expect((await create(name)).status).toBe(201);
    const perRack = new Map<string, number>();
    for (const name of names) {
      const rack = rackOf(await locationOf(name));
      perRack.set(rack, (perRack.get(rack) ?? 0) + 1);
    }
    expect(Object.fromEntries(perRack)).toEqual({ A1: 2, B1: 2, C1: 2 });
  });

  it("reservations count like instances, and their commit keeps the rack they reserved", async () => {
    await call("POST", "/1.0/placement-groups", {
      name: "pg",
      config: { policy: "spread", rigor: "strict", topology: "rack" },
    });
    const reserve = (name: string) =>
      call("POST", "/1.0/instances", {
        name,
        forthcoming: true,
        config: { "placement.group": "pg", "limits.cpu": "1", "limits.memory": "1GiB" },
      });
    for (const name of ["r1", "r2"]) expect((await reserve(name)).status).toBe(201);
    expect((await create("r3")).status).toBe(201);
    const racks = await Promise.all(["r1", "r2", "r3"].map(async (name) => rackOf(await locationOf(name))));
    expect(racks.sort()).toEqual(["A1", "B1", "C1"]);
    expect((await reserve("r4")).body.error).toContain('topology key "rack"');
    const before = await locationOf("r1");
    expect((await call("POST", "/1.0/instances/r1/commit", {})).status).toBe(200);
    expect(await locationOf("r1")).toBe(before);
  });

  it("a bulk of three in one request lands in three racks", async () => {
    await call("POST", "/1.0/placement-groups", {
      name: "pg",
      config: { policy: "spread", rigor: "strict", topology: "rack" },
    });
    const instances = ["u1", "u2", "u3"].map((name) => ({
      name,
      config: { "placement.group": "pg", "limits.cpu": "1", "limits.memory": "1GiB" },
    }));
    expect((await call("POST", "/1.0/instances/bulk", { instances })).status).toBe(200);
    const racks = await Promise.all(["u1", "u2", "u3"].map(async (name) => rackOf(await locationOf(name))));
    expect(racks.sort()).toEqual(["A1", "B1", "C1"]);
  });

  it("evacuating a rack's members keeps the rule (strict: within the rack, then refused; permissive: even)", async () => {
    await call("POST", "/1.0/placement-groups", {
      name: "pg",
      config: { policy: "spread", rigor: "strict", topology: "rack" },
    });
    for (const name of ["s1", "s2", "s3"]) await create(name);
    const inRackC = ["s1", "s2", "s3"];
    let moving = "";
    for (const name of inRackC) if (rackOf(await locationOf(name)) === "C1") moving = name;
    const from = await locationOf(moving);
    const other = from === "c1" ? "c2" : "c1";
    // Its own instance does not hold it back: it moves within rack C1.
    expect((await call("POST", `/1.0/cluster/members/${from}/state`, { action: "evacuate" })).status).toBe(
      200,
    );
    expect(await locationOf(moving)).toBe(other);
    // With the whole rack gone, no rack is free: the evacuation is refused naming the group and the key.
    const refused = await call("POST", `/1.0/cluster/members/${other}/state`, { action: "evacuate" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error).toContain('placement group "pg"');
    expect(refused.body.error).toContain('topology key "rack"');
    expect(await locationOf(moving)).toBe(other);
    // Restore brings it back to its member, in the same rack: the rule still holds.
    expect((await call("POST", `/1.0/cluster/members/${from}/state`, { action: "restore" })).status).toBe(
      200,
    );
    expect(await locationOf(moving)).toBe(from);

    // Permissive: six two per rack; evacuating both C1 members leaves three in A1 and three in B1.
    await call("POST", "/1.0/placement-groups", {
      name: "pp",
      config: { policy: "spread", rigor: "permissive", topology: "rack" },
    });
    const names = ["t1", "t2", "t3", "t4", "t5", "t6"];
    for (const name of names) expect((await create(name, "pp")).status).toBe(201);
    // The strict group's instances leave first, so only the permissive group moves.
    for (const name of ["s1", "s2", "s3"]) await call("DELETE", `/1.0/instances/${name}`);
    for (const member of ["c1", "c2"]) {
      const evacuated = await call("POST", `/1.0/cluster/members/${member}/state`, { action: "evacuate" });
      expect({ status: evacuated.status, error: evacuated.body.error }).toEqual({ status: 200, error: "" });
    }
    const perRack = new Map<string, number>();
    for (const name of names) {
      const rack = rackOf(await locationOf(name));
      perRack.set(rack, (perRack.get(rack) ?? 0) + 1);
    }
    expect(Object.fromEntries(perRack)).toEqual({ A1: 3, B1: 3 });
  });
});
