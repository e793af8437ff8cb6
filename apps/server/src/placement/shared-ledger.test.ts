/**
 * One model, one ledger, over HTTP against a real berthd (SQLite file):
 * a member is a root resource provider; capacity claimed through the
 * Placement API is refused to an LXD create and the reverse; a storm of
 * both kinds at once never overcommits and leaves `check()` clean; a root
 * provider created through Placement shows in the LXD API with a status
 * that says what it is.
 */
import { randomUUID } from "node:crypto";
import { memberProviderUuid } from "@berth/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placementCall } from "../testing/placement.fixture.js";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { PLACEMENT_ROOT_MESSAGE } from "../wire/members.js";

describe("the Placement API and the LXD API share one ledger", () => {
  let server: TestServer;
  const placement = (method: string, path: string, body?: unknown) =>
    placementCall(server, method, path, body);
  /** Consumers are uuids: one per name a test uses. */
  const consumers = new Map<string, string>();
  const consumer = (name: string) => {
    if (!consumers.has(name)) consumers.set(name, randomUUID());
    return consumers.get(name) as string;
  };
  const claim = (name: string, provider: string, vcpu: number) =>
    placement("PUT", `/allocations/${consumer(name)}`, {
      allocations: { [provider]: { resources: { VCPU: vcpu } } },
      project_id: "p",
      user_id: "u",
      consumer_generation: null,
      consumer_type: "INSTANCE",
    });
  const create = (name: string, cpu: number) =>
    server.call("POST", "/1.0/instances", { name, config: { "limits.cpu": String(cpu) } });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("shows a member as a root provider and refuses each API what the other claimed", async () => {
    await server.engine.members.create({
      name: "m1",
      inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 8192 } },
    });
    const root = memberProviderUuid("m1");
    const listed = await placement("GET", "/resource_providers");
    expect(listed.body.resource_providers).toEqual([
      expect.objectContaining({
        uuid: root,
        name: "m1",
        parent_provider_uuid: null,
        root_provider_uuid: root,
      }),
    ]);
    expect((await claim("c1", root, 4)).status).toBe(204);
    const refused = await create("a", 1);
    expect(refused.status).toBe(507);
    expect((await placement("DELETE", `/allocations/${consumer("c1")}`)).status).toBe(204);
    expect((await create("b", 3)).status).toBe(201);
    const usages = await placement("GET", `/resource_providers/${root}/usages`);
    expect(usages.body.usages).toMatchObject({ VCPU: 3 });
    const over = await claim("c2", root, 2);
    expect(over.status).toBe(409);
    expect(over.body.errors[0].detail).toContain("The requested amount would exceed the capacity.");
    expect((await claim("c3", root, 1)).status).toBe(204);
    const member = await server.call("GET", "/1.0/cluster/members?recursion=2");
    expect(member.body.metadata[0].inventories.VCPU).toMatchObject({ used: 4, capacity: 4 });
    // Placement consumers stay consumers: no instance stands for them.
    expect((await server.call("GET", "/1.0/instances")).body.metadata).toEqual(["/1.0/instances/b"]);
    await server.call("DELETE", "/1.0/instances/b");
    await placement("DELETE", `/allocations/${consumer("c3")}`);
  });

  it("never overcommits under a storm of both APIs at once, and check() stays clean", {
    timeout: 60_000,
  }, async () => {
    await server.engine.members.create({
      name: "m2",
      inventories: { VCPU: { total: 6 }, MEMORY_MB: { total: 8192 } },
    });
    await server.engine.members.create({
      name: "m3",
      inventories: { VCPU: { total: 6 }, MEMORY_MB: { total: 8192 } },
    });
    const roots = ["m1", "m2", "m3"].map(memberProviderUuid);
    const requests = Array.from({ length: 48 }, (_, i) =>
      i % 2 === 0
        ? create(`s${i}`, 1).then((r) => r.status)
        : claim(`storm-${i}`, roots[i % 3] as string, 1).then((r) => r.status),
    );
    const statuses = await Promise.all(requests);
    expect(statuses.every((s) => [201, 204, 409, 507].includes(s))).toBe(true);
    const won = statuses.filter((s) => s === 201 || s === 204).length;
    // 4 + 6 + 6 VCPU: every unit is taken once, never more.
    expect(won).toBeLessThanOrEqual(16);
    for (const name of ["m1", "m2", "m3"]) {
      const usage = (await server.engine.store.memberUsage([name]))[0]?.used.VCPU ?? 0;
      expect(usage).toBeLessThanOrEqual(name === "m1" ? 4 : 6);
    }
    const total = (await server.engine.store.memberUsage(["m1", "m2", "m3"])).reduce(
      (sum, u) => sum + (u.used.VCPU ?? 0),
      0,
    );
    expect(total).toBe(won);
    const store = server.engine.store as unknown as {
      check(): Promise<{ ok: boolean; violations: unknown[] }>;
    };
    expect((await store.check()).violations).toEqual([]);
  });

  it("lists a root provider created through Placement among the members, with a clear status", async () => {
    const created = await placement("POST", "/resource_providers", { name: "nova-compute-7" });
    expect(created.status).toBe(200);
    const members = await server.call("GET", "/1.0/cluster/members?recursion=1");
    const shown = members.body.metadata.find(
      (m: { server_name: string }) => m.server_name === "nova-compute-7",
    );
    expect(shown).toMatchObject({ status: "Offline", message: PLACEMENT_ROOT_MESSAGE });
    const one = await server.call("GET", "/1.0/cluster/members/nova-compute-7");
    expect(one.body.metadata).toMatchObject({ status: "Offline", message: PLACEMENT_ROOT_MESSAGE });
    // Schedulable for Placement clients although it never heartbeats.
    const uuid = created.body.uuid as string;
    await placement("PUT", `/resource_providers/${uuid}/inventories`, {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 2 } },
    });
    const candidates = await placement("GET", "/allocation_candidates?resources=VCPU:2");
    expect(Object.keys(candidates.body.provider_summaries)).toContain(uuid);
    // LXD placements never pick it.
    expect(
      (await server.call("POST", "/1.0/instances?target=nova-compute-7", { name: "x" })).status,
    ).not.toBe(201);
  });
});
