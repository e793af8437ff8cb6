/**
 * A member's root provider written through the Placement API, over HTTP
 * against a real berthd (SQLite file): the reshaper and inventory writes
 * change the member's own inventories (what LXD placements count), in one
 * transaction, refused while the one ledger (instances and Placement
 * consumers) holds a class; traits are the member's own, set from either
 * API; aggregates stay Placement's (the root's row); Placement's
 * generations keep refusing a stale writer.
 */
import { randomUUID } from "node:crypto";
import { memberProviderUuid } from "@berth/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placementCall } from "../testing/placement.fixture.js";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

describe("a member's root provider written through the Placement API", () => {
  let server: TestServer;
  const placement = (method: string, path: string, body?: unknown) =>
    placementCall(server, method, path, body);
  const generationOf = async (uuid: string): Promise<number> =>
    (await placement("GET", `/resource_providers/${uuid}`)).body.generation;
  const memberInventories = async (name: string) =>
    (await server.call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata.inventories;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("reshapes a member's root that has no row yet: the member's inventories change", async () => {
    await server.engine.members.create({ name: "r1", inventories: { VCPU: { total: 2 } } });
    const root = memberProviderUuid("r1");
    const generation = await generationOf(root);
    const stale = await placement("POST", "/reshaper", {
      inventories: {
        [root]: { resource_provider_generation: generation + 5, inventories: { VCPU: { total: 8 } } },
      },
      allocations: {},
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("placement.concurrent_update");
    const reshaped = await placement("POST", "/reshaper", {
      inventories: {
        [root]: {
          resource_provider_generation: generation,
          inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } },
        },
      },
      allocations: {},
    });
    expect(reshaped.status).toBe(204);
    // The member's own inventories: what the LXD API shows and LXD placements count.
    const inventories = await memberInventories("r1");
    expect(inventories.VCPU).toMatchObject({ total: 8, derived: false });
    expect(inventories.MEMORY_MB).toMatchObject({ total: 4096 });
    expect(await generationOf(root)).toBeGreaterThan(generation);
    const placed = await server.call("POST", "/1.0/instances?target=r1", {
      name: "wide",
      config: { "limits.cpu": "6" },
    });
    expect(placed.status).toBe(201);
    await server.call("DELETE", "/1.0/instances/wide");
  });

  it("writes a member root's inventories on the member, refused while the one ledger holds a class", async () => {
    await server.engine.members.create({
      name: "i1",
      inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 4096 } },
    });
    const root = memberProviderUuid("i1");
    const set = await placement("PUT", `/resource_providers/${root}/inventories`, {
      resource_provider_generation: await generationOf(root),
      inventories: { VCPU: { total: 6 }, MEMORY_MB: { total: 4096 }, DISK_GB: { total: 100 } },
    });
    expect(set.status).toBe(200);
    expect((await memberInventories("i1")).DISK_GB).toMatchObject({ total: 100, derived: false });
    const one = await placement("PUT", `/resource_providers/${root}/inventories/VCPU`, {
      resource_provider_generation: set.body.resource_provider_generation,
      total: 5,
    });
    expect(one.status).toBe(200);
    expect((await memberInventories("i1")).VCPU).toMatchObject({ total: 5 });
    // A stale generation is Placement's conflict.
    const stale = await placement("PUT", `/resource_providers/${root}/inventories/VCPU`, {
      resource_provider_generation: set.body.resource_provider_generation,
      total: 3,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("placement.concurrent_update");
    // A consumer holds VCPU on the root, an instance holds MEMORY_MB on the member.
    const consumer = randomUUID();
    expect(
      (
        await placement("PUT", `/allocations/${consumer}`, {
          allocations: { [root]: { resources: { VCPU: 1 } } },
          project_id: "p",
          user_id: "u",
          consumer_generation: null,
          consumer_type: "INSTANCE",
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await server.call("POST", "/1.0/instances?target=i1", {
          name: "holder",
          config: { "limits.memory": "1GiB", "limits.cpu": "1" },
        })
      ).status,
    ).toBe(201);
    const dropAll = await placement("PUT", `/resource_providers/${root}/inventories`, {
      resource_provider_generation: await generationOf(root),
      inventories: { DISK_GB: { total: 100 } },
    });
    expect(dropAll.status).toBe(409);
    expect(dropAll.body.errors[0].code).toBe("placement.inventory.inuse");
    expect(dropAll.body.errors[0].detail).toContain(
      `Inventory for 'VCPU, MEMORY_MB' on resource provider '${root}' in use.`,
    );
    const dropMemory = await placement("DELETE", `/resource_providers/${root}/inventories/MEMORY_MB`);
    expect(dropMemory.status).toBe(409);
    expect(dropMemory.body.errors[0].code).toBe("placement.inventory.inuse");
    expect(Object.keys(await memberInventories("i1")).sort()).toEqual(["DISK_GB", "MEMORY_MB", "VCPU"]);
    // A class nothing holds goes, from the member.
    expect((await placement("DELETE", `/resource_providers/${root}/inventories/DISK_GB`)).status).toBe(204);
    expect((await memberInventories("i1")).DISK_GB).toBeUndefined();
    await server.call("DELETE", "/1.0/instances/holder");
    await placement("DELETE", `/allocations/${consumer}`);
  });

  it("has the member's traits: set through either API, seen by both, generation-checked", async () => {
    await server.engine.members.create({ name: "t1", inventories: { VCPU: { total: 2 } } });
    const root = memberProviderUuid("t1");
    expect((await placement("PUT", "/traits/CUSTOM_GOLD")).status).toBe(201);
    const generation = await generationOf(root);
    const set = await placement("PUT", `/resource_providers/${root}/traits`, {
      resource_provider_generation: generation,
      traits: ["CUSTOM_GOLD", "HW_CPU_X86_AVX2"],
    });
    expect(set.status).toBe(200);
    expect(set.body.resource_provider_generation).toBe(generation + 1);
    const member = await server.call("GET", "/1.0/cluster/members/t1");
    expect(member.body.metadata.traits.sort()).toEqual(["CUSTOM_GOLD", "HW_CPU_X86_AVX2"]);
    // The trait is in use while the member has it.
    expect((await placement("DELETE", "/traits/CUSTOM_GOLD")).status).toBe(409);
    // Through the LXD API: Placement sees the member's traits, and its generation moved.
    expect((await server.call("PATCH", "/1.0/cluster/members/t1", { traits: ["CUSTOM_GOLD"] })).status).toBe(
      200,
    );
    const shown = await placement("GET", `/resource_providers/${root}/traits`);
    expect(shown.body.traits).toEqual(["CUSTOM_GOLD"]);
    expect(shown.body.resource_provider_generation).toBeGreaterThan(generation + 1);
    const stale = await placement("PUT", `/resource_providers/${root}/traits`, {
      resource_provider_generation: generation + 1,
      traits: [],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("placement.concurrent_update");
    const associated = await placement("GET", "/traits?associated=true&name=in:CUSTOM_GOLD");
    expect(associated.body.traits).toEqual(["CUSTOM_GOLD"]);
    const candidates = await placement("GET", "/allocation_candidates?resources=VCPU:1&required=CUSTOM_GOLD");
    expect(Object.keys(candidates.body.provider_summaries)).toEqual([root]);
    expect((await placement("DELETE", `/resource_providers/${root}/traits`)).status).toBe(204);
    expect((await server.call("GET", "/1.0/cluster/members/t1")).body.metadata.traits).toEqual([]);
  });

  it("keeps aggregates on the root's row, generation-checked from 1.19", async () => {
    await server.engine.members.create({ name: "a1", inventories: { VCPU: { total: 2 } } });
    const root = memberProviderUuid("a1");
    const generation = await generationOf(root);
    const aggregate = randomUUID();
    const set = await placement("PUT", `/resource_providers/${root}/aggregates`, {
      resource_provider_generation: generation,
      aggregates: [aggregate],
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ aggregates: [aggregate], resource_provider_generation: generation + 1 });
    const stale = await placement("PUT", `/resource_providers/${root}/aggregates`, {
      resource_provider_generation: generation,
      aggregates: [],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe("placement.concurrent_update");
    const listed = await placement("GET", `/resource_providers?member_of=${aggregate}`);
    expect(listed.body.resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([root]);
    // The member's inventories and traits are untouched by it.
    expect((await memberInventories("a1")).VCPU).toMatchObject({ total: 2 });
  });
});
