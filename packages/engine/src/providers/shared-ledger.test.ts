/**
 * One model, one ledger, through the engine: a member is a root resource
 * provider, and capacity claimed through Placement's consumers is refused
 * to the LXD side's placements and the reverse.
 */
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { memberProviderUuid, nameBasedUuid } from "../rules/ledger/shared-ledger.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

const claimOn = (consumerUuid: string, provider: string, resources: Record<string, number>) => ({
  consumerUuid,
  projectId: "p",
  userId: "u",
  consumerType: "INSTANCE",
  allocations: { [provider]: resources },
});

async function refusal(work: Promise<unknown>): Promise<EngineError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe("a member is a root resource provider", () => {
  it("derives the root's uuid as RFC 4122 version 5 does", () => {
    // The RFC's DNS namespace example, as every uuid library computes it.
    expect(nameBasedUuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
    expect(memberProviderUuid("m1")).toBe(memberProviderUuid("m1"));
    expect(memberProviderUuid("m1")).not.toBe(memberProviderUuid("m2"));
  });

  it("answers the same uuid from its kept answers, also after more names than it keeps", () => {
    const namespace = "5b1e8c2e-6f0a-4c49-9d3e-1f6b2a7c8d90";
    const first = memberProviderUuid("m1");
    expect(first).toBe(nameBasedUuid(namespace, "m1"));
    for (let i = 0; i < 70_000; i++) memberProviderUuid(`name-${i}`);
    expect(memberProviderUuid("m1")).toBe(first);
    expect(memberProviderUuid("name-69999")).toBe(nameBasedUuid(namespace, "name-69999"));
  });

  it("is listed by Placement with the member's inventories and usage", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    await engine.createInstance({ name: "a", config: { "limits.cpu": "1" } });
    const [root] = await engine.providers.list();
    expect(root).toMatchObject({ uuid: memberProviderUuid("m1"), name: "m1", parentUuid: null });
    expect(root?.inventories.VCPU?.total).toBe(4);
    expect(await engine.consumers.providerUsage(memberProviderUuid("m1"))).toMatchObject({ VCPU: 1 });
  });

  it("refuses an LXD placement the Placement consumers leave no room for, and the reverse", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const root = memberProviderUuid("m1");
    await engine.consumers.allocate([claimOn("c1", root, { VCPU: 4 })]);
    const lxd = await refusal(engine.createInstance({ name: "a", config: { "limits.cpu": "1" } }));
    expect(lxd.kind).toBe("insufficient_capacity");
    await engine.consumers.remove("c1");
    await engine.createInstance({ name: "b", config: { "limits.cpu": "3" } });
    const placement = await refusal(engine.consumers.allocate([claimOn("c2", root, { VCPU: 2 })]));
    expect(placement.message).toBe(
      `Unable to allocate inventory for consumer c2: Unable to create allocation for 'VCPU' on resource provider '${root}'. The requested amount would exceed the capacity.`,
    );
    await engine.consumers.allocate([claimOn("c3", root, { VCPU: 1 })]);
    // The member's own view counts the consumer as in use (after the feed read every read starts with).
    await engine.sync();
    expect(engine.getMember("m1").usage.used.VCPU).toBe(4);
  });

  it("keeps its inventories on the member and its name and place fixed", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const uuid = memberProviderUuid("m1");
    const before = await engine.providers.get(uuid);
    const after = await engine.providers
      .setInventories(uuid, before.generation, {
        VCPU: { total: 8 },
        MEMORY_MB: { total: 4096 },
        CUSTOM_FPGA: { total: 1 },
      } as never)
      .catch((e: unknown) => e);
    // CUSTOM_FPGA does not exist yet: refused like any provider's.
    expect(after).toBeInstanceOf(EngineError);
    const set = await engine.providers.setInventories(uuid, before.generation, {
      VCPU: { total: 8 },
      MEMORY_MB: { total: 4096 },
    });
    expect(set.generation).toBe(before.generation + 1);
    expect(engine.inventories("m1").inventories.VCPU).toMatchObject({ total: 8, source: "explicit" });
    const stale = await refusal(
      engine.providers.setInventories(uuid, before.generation, { VCPU: { total: 2 } }),
    );
    expect(stale.message).toBe("resource provider generation conflict");
    expect((await refusal(engine.providers.update(uuid, { name: "renamed" }, true))).kind).toBe("conflict");
    expect((await refusal(engine.providers.delete(uuid))).kind).toBe("conflict");
  });

  it("keeps a member with Placement allocations, and lets it go once they are gone", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const root = memberProviderUuid("m1");
    await engine.consumers.allocate([claimOn("c1", root, { VCPU: 1 })]);
    expect((await refusal(engine.deleteMember("m1"))).message).toContain("has Placement allocations");
    await engine.consumers.remove("c1");
    await engine.deleteMember("m1");
    expect(await engine.providers.list()).toEqual([]);
  });

  it("reshapes a member's root against its instances, and another engine's model follows", async () => {
    const { engine, store } = await testCluster();
    const other = (await testCluster({ store })).engine;
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const root = memberProviderUuid("m1");
    await engine.createInstance({ name: "a", config: { "limits.cpu": "2" } });
    await engine.consumers.allocate([claimOn("c1", root, { VCPU: 1 })]);
    const { generation } = await engine.providers.get(root);
    const reshapeTo = (vcpu: number) =>
      engine.consumers.reshape({
        inventories: {
          [root]: { generation, inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 4096 } } },
        },
        allocations: [{ ...claimOn("c1", root, { VCPU: vcpu }), expectedGeneration: 1 }],
      });
    // The instance holds 2 of 4: a consumer of 3 would overcommit the member.
    const refused = await refusal(reshapeTo(3));
    expect(refused.message).toBe(
      `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${root}'. The requested amount would exceed the capacity.`,
    );
    await other.sync();
    expect(other.getMember("m1").usage.used.VCPU).toBe(3);
    await reshapeTo(2);
    await other.sync();
    expect(other.getMember("m1").usage.used.VCPU).toBe(4);
    expect(await other.consumers.providerUsage(root)).toMatchObject({ VCPU: 4 });
  });

  it("writes a member root's inventories and traits on the member, and another engine's model follows", async () => {
    const { engine, store } = await testCluster();
    const other = (await testCluster({ store })).engine;
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const root = memberProviderUuid("m1");
    // A reshape of a root without a stored row: the member's inventories change.
    const before = await engine.providers.get(root);
    await engine.consumers.reshape({
      inventories: {
        [root]: {
          generation: before.generation,
          inventories: { VCPU: { total: 16 }, MEMORY_MB: { total: 4096 } },
        },
      },
      allocations: [],
    });
    await other.sync();
    expect(other.getMember("m1").record.inventories.VCPU?.total).toBe(16);
    expect((await other.providers.get(root)).generation).toBe(before.generation + 2);
    const traits = await engine.providers.setProviderTraits(root, before.generation + 2, ["HW_CPU_X86_AVX2"]);
    expect(traits.generation).toBe(before.generation + 3);
    await other.sync();
    expect(other.getMember("m1").record.traits).toEqual(["HW_CPU_X86_AVX2"]);
    expect((await other.providers.get(root)).traits).toEqual(["HW_CPU_X86_AVX2"]);
    // The other engine holds a stale generation after the member's traits change through the LXD side.
    await engine.updateMember("m1", { traits: [] });
    await other.sync();
    expect(
      (await refusal(other.providers.setInventories(root, traits.generation, { VCPU: { total: 2 } })))
        .message,
    ).toBe("resource provider generation conflict");
    expect(other.getMember("m1").record.inventories.VCPU?.total).toBe(16);
  });

  it("gives children to a member's root: a claim spans the tree", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4, memoryMb: 4096 });
    const root = memberProviderUuid("m1");
    await engine.catalog.createResourceClass("CUSTOM_FPGA");
    const fpga = await engine.providers.create({ name: "m1-fpga0", parentUuid: root });
    await engine.providers.setInventories(fpga.uuid, fpga.generation, { CUSTOM_FPGA: { total: 1 } });
    const answer = await engine.providers.candidates({
      groups: [{ suffix: "", resources: { VCPU: 1, CUSTOM_FPGA: 1 } }],
    });
    expect(answer.candidates.map((candidate) => candidate.allocations)).toEqual([
      { [root]: { VCPU: 1 }, [fpga.uuid]: { CUSTOM_FPGA: 1 } },
    ]);
    await engine.consumers.allocate([
      { ...claimOn("c1", root, { VCPU: 1 }), allocations: answer.candidates[0]!.allocations },
    ]);
    await engine.sync();
    expect(engine.getMember("m1").usage.used.VCPU).toBe(1);
    expect(
      (await engine.providers.candidates({ groups: [{ suffix: "", resources: { CUSTOM_FPGA: 1 } }] }))
        .candidates,
    ).toEqual([]);
  });

  it("never overcommits under a storm mixing both APIs", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 8, memoryMb: 65536 });
    await addMember(engine, "m2", { vcpu: 8, memoryMb: 65536 });
    const roots = [memberProviderUuid("m1"), memberProviderUuid("m2")];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      work.push(
        i % 2 === 0
          ? engine.createInstance({ name: `i${i}`, config: { "limits.cpu": "1" } })
          : engine.consumers.allocate([
              claimOn(`c${i}`, roots[i % 2 === 1 ? (i >> 1) % 2 : 0]!, { VCPU: 1 }),
            ]),
      );
    }
    const settled = await Promise.allSettled(work);
    const placed = settled.filter((s) => s.status === "fulfilled").length;
    expect(placed).toBe(16);
    await engine.sync();
    for (const name of ["m1", "m2"]) expect(engine.getMember(name).usage.used.VCPU).toBe(8);
  });
});
