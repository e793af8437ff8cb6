/**
 * Issue #15 items 1 and 2 over HTTP: every path that names a member
 * (create, bulk, reservation, commit, move, restore) runs it through the
 * same feasibility filters as automatic placement, and answers the first
 * refusal in LXD's words.
 */
import { ManualClock } from "@berth/engine";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  expectRefusal,
  memberState,
  startTestServer,
  type TestServer,
} from "./testing/test-server.fixture.js";

const IMAGE_X86 = "a".repeat(64);

describe("a named member goes through the whole stack", () => {
  const clock = new ManualClock("2026-11-24T12:00:00Z");
  let server: TestServer;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  const refused = (method: string, path: string, body: unknown, status: number, error: string) =>
    expectRefusal(server, { method, path, body }, status, error);

  /** Everyone heartbeats except `silent`. */
  async function heartbeatAllBut(...silent: string[]) {
    for (const name of ["x1", "x2", "arm", "off", "evac", "manual"]) {
      if (!silent.includes(name)) await server.local().putMemberState(name, memberState() as never);
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ clock });
    const members: [string, string, Record<string, string>][] = [
      ["x1", "x86_64", {}],
      ["x2", "x86_64", {}],
      ["arm", "aarch64", {}],
      ["off", "x86_64", {}],
      ["evac", "x86_64", {}],
      ["manual", "x86_64", { "scheduler.instance": "manual" }],
    ];
    for (const [name, architecture, config] of members) {
      expect(
        (await call("POST", "/1.0/cluster/members", { server_name: name, architecture, config })).status,
      ).toBe(201);
      const { generation } = (await call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata;
      await call("PUT", `/1.0/cluster/members/${name}/inventories`, {
        generation,
        inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 }, DISK_GB: { total: 100 } },
      });
    }
    await call("POST", "/1.0/images", { fingerprint: IMAGE_X86, architecture: "x86_64" });
    await call("POST", "/1.0/projects", {
      name: "grouped",
      config: { restricted: "true", "restricted.cluster.target": "allow", "restricted.cluster.groups": "gx" },
    });
    await call("POST", "/1.0/cluster/groups", { name: "gx", members: ["x1"] });
  });
  afterAll(() => server.close());

  beforeEach(async () => {
    clock.advance(30_000);
    await heartbeatAllBut("off");
    const evac = (await call("GET", "/1.0/cluster/members/evac")).body.metadata;
    if (evac.status !== "Evacuated") {
      expect((await call("POST", "/1.0/cluster/members/evac/state", { action: "evacuate" })).status).toBe(
        200,
      );
    }
  });

  it("create ?target= refuses an offline member with LXD's words", async () => {
    await refused(
      "POST",
      "/1.0/instances?target=off",
      { name: "c1" },
      400,
      "Target cluster member is offline",
    );
  });

  it("create ?target= refuses an evacuated member with LXD's words (403)", async () => {
    await refused("POST", "/1.0/instances?target=evac", { name: "c2" }, 403, "Cluster member is evacuated");
  });

  it("create ?target= refuses a member that can't run the image's architecture", async () => {
    await refused(
      "POST",
      "/1.0/instances?target=arm",
      { name: "c3", source: { type: "image", fingerprint: IMAGE_X86 } },
      400,
      "Requested architecture isn't supported by this host",
    );
    const placed = await call("POST", "/1.0/instances?target=x1", {
      name: "c3",
      source: { type: "image", fingerprint: IMAGE_X86 },
    });
    expect(placed.status).toBe(201);
    expect(placed.body.metadata.location).toBe("x1");
  });

  it("create ?target= refuses a member outside the project's cluster groups", async () => {
    await refused(
      "POST",
      "/1.0/instances?project=grouped&target=x2",
      { name: "c4" },
      403,
      'Project isn\'t allowed to use this cluster member: "x2"',
    );
  });

  it("a manual member still takes an instance targeted at it (scheduler.instance=manual)", async () => {
    const placed = await call("POST", "/1.0/instances?target=manual", { name: "c5" });
    expect(placed.status).toBe(201);
    expect(placed.body.metadata.location).toBe("manual");
  });

  it("bulk and reservations with ?target= answer the same refusals", async () => {
    const bulk = await call("POST", "/1.0/instances/bulk?target=off", { instances: [{ name: "b1" }] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error).toContain("Target cluster member is offline");
    await refused(
      "POST",
      "/1.0/instances?target=evac",
      { name: "r1", forthcoming: true },
      403,
      "Cluster member is evacuated",
    );
  });

  it("commit refuses a reservation whose member went offline", async () => {
    const reserved = await call("POST", "/1.0/instances?target=x2", { name: "r2", forthcoming: true });
    expect(reserved.status).toBe(201);
    clock.advance(30_000);
    await heartbeatAllBut("off", "x2");
    await refused("POST", "/1.0/instances/r2/commit", {}, 400, "Target cluster member is offline");
    await heartbeatAllBut("off");
    expect((await call("POST", "/1.0/instances/r2/commit", {})).status).toBe(200);
  });

  it("move refuses an offline, an evacuated, the same and an unfit member", async () => {
    expect((await call("POST", "/1.0/instances?target=x1", { name: "m1" })).status).toBe(201);
    await refused("POST", "/1.0/instances/m1?target=off", {}, 400, "Target cluster member is offline");
    await refused(
      "POST",
      "/1.0/instances/m1?target=evac",
      {},
      400,
      "The destination cluster member is evacuated",
    );
    await refused(
      "POST",
      "/1.0/instances/m1?target=x1",
      {},
      400,
      "Requested target server is the same as current server",
    );
    expect(
      (await call("POST", "/1.0/instances?target=x1", { name: "m2", architecture: "x86_64" })).status,
    ).toBe(201);
    await refused(
      "POST",
      "/1.0/instances/m2?target=arm",
      {},
      400,
      "Requested architecture isn't supported by this host",
    );
  });
});

describe("restore is safe and all-or-nothing", () => {
  const clock = new ManualClock("2026-11-24T12:00:00Z");
  let server: TestServer;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  beforeAll(async () => {
    server = await startTestServer({ clock });
    for (const name of ["r1", "r2"]) {
      await call("POST", "/1.0/cluster/members", { server_name: name, architecture: "x86_64" });
      const { generation } = (await call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata;
      await call("PUT", `/1.0/cluster/members/${name}/inventories`, {
        generation,
        inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } },
      });
    }
  });
  afterAll(() => server.close());

  it("shows the origin, refuses an offline member, and restores nothing when the member can't take them back", async () => {
    const created = await call("POST", "/1.0/instances?target=r1", {
      name: "w1",
      config: { "limits.memory": "2GiB" },
    });
    expect(created.status).toBe(201);
    expect((await call("POST", "/1.0/cluster/members/r1/state", { action: "evacuate" })).status).toBe(200);
    const moved = (await call("GET", "/1.0/instances/w1")).body.metadata;
    expect(moved.location).toBe("r2");
    expect(moved.config["volatile.evacuate.origin"]).toBe("r1");

    // r1 goes silent: it shows Offline (not Evacuated) and can't be restored.
    clock.advance(30_000);
    await server.local().putMemberState("r2", memberState() as never);
    expect((await call("GET", "/1.0/cluster/members/r1")).body.metadata.status).toBe("Offline");
    const offline = await call("POST", "/1.0/cluster/members/r1/state", { action: "restore" });
    expect(offline.status).toBe(400);
    expect(offline.body.error).toBe(
      'Cluster member "r1" is offline: it can\'t be restored until it heartbeats again',
    );
    expect((await call("GET", "/1.0/instances/w1")).body.metadata.location).toBe("r2");

    // Back online, but shrunk below what w1 holds: the restore fails and changes nothing.
    await server.local().putMemberState("r1", memberState() as never);
    const { generation } = (await call("GET", "/1.0/cluster/members/r1/inventories")).body.metadata;
    await call("PUT", "/1.0/cluster/members/r1/inventories", {
      generation,
      inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 1024 } },
    });
    const full = await call("POST", "/1.0/cluster/members/r1/state", { action: "restore" });
    expect(full.status).toBe(507);
    expect((await call("GET", "/1.0/cluster/members/r1")).body.metadata.status).toBe("Evacuated");
    expect((await call("GET", "/1.0/instances/w1")).body.metadata.location).toBe("r2");

    const again = (await call("GET", "/1.0/cluster/members/r1/inventories")).body.metadata.generation;
    await call("PUT", "/1.0/cluster/members/r1/inventories", {
      generation: again,
      inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } },
    });
    expect((await call("POST", "/1.0/cluster/members/r1/state", { action: "restore" })).status).toBe(200);
    const back = (await call("GET", "/1.0/instances/w1")).body.metadata;
    expect(back.location).toBe("r1");
    expect(back.config["volatile.evacuate.origin"]).toBeUndefined();
    expect((await call("GET", "/1.0/cluster/members/r1")).body.metadata.status).toBe("Online");
  });
});
