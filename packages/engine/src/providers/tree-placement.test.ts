/**
 * Berth's own placements claim a child provider's classes (one model, one
 * ledger): a class a member has no inventory of is taken from a child
 * provider of its tree, recorded against that child, released, moved and
 * counted with Placement's consumers.
 */
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { INSTANCE_CONSUMER_TYPE } from "../rules/ledger/instance-consumers.js";
import { memberProviderUuid } from "../rules/ledger/shared-ledger.js";
import type { Engine } from "../services/engine.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

/** A child provider named `name` under member `member`'s root with `total` CUSTOM_FPGA. */
async function fpgaChild(engine: Engine, member: string, name: string, total: number): Promise<string> {
  const child = await engine.providers.create({ name, parentUuid: memberProviderUuid(member) });
  await engine.providers.setInventories(child.uuid, child.generation, { CUSTOM_FPGA: { total } });
  return child.uuid;
}

async function fpgaCluster() {
  const cluster = await testCluster();
  const { engine } = cluster;
  await engine.catalog.createResourceClass("CUSTOM_FPGA");
  await engine.catalog.createFlavor({
    name: "fpga",
    vcpus: 1,
    memory_mb: 1024,
    extra_specs: { "resources:CUSTOM_FPGA": "1" },
  });
  await addMember(engine, "plain");
  await addMember(engine, "accel");
  return cluster;
}

const onChild = (child: string) => ({
  member: child,
  resourceClass: "CUSTOM_FPGA",
  ledger: "used",
  amount: 1,
});

describe("a placement takes a class the member lacks from a child provider", () => {
  it("lands on the member whose child has room, records it on the child, and refuses a second", async () => {
    const { engine } = await fpgaCluster();
    const child = await fpgaChild(engine, "accel", "accel-fpga0", 1);
    const { instance } = await engine.createInstance({ name: "a", flavor: "fpga" });
    expect(instance.location).toBe("accel");
    expect(instance.allocations).toContainEqual(onChild(child));
    expect(instance.allocations.find((row) => row.resourceClass === "VCPU")?.member).toBe("accel");
    expect(await engine.consumers.providerUsage(child)).toEqual({ CUSTOM_FPGA: 1 });
    // The instance is the Placement consumer of its uuid, holding only its rows on the child.
    expect(await engine.consumers.get(instance.id)).toMatchObject({
      uuid: instance.id,
      projectId: "default",
      consumerType: INSTANCE_CONSUMER_TYPE,
      allocations: [{ member: child, resourceClass: "CUSTOM_FPGA", amount: 1 }],
    });
    const second = await failure(engine.createInstance({ name: "b", flavor: "fpga" }));
    expect(second.kind).toBe("insufficient_capacity");
    expect(second.message).toBe(
      'No suitable cluster member could be found for instance "b" in project "default": 1 member lacks CUSTOM_FPGA, 1 has too little CUSTOM_FPGA',
    );
    const named = await failure(engine.createInstance({ name: "b", flavor: "fpga" }, { target: "accel" }));
    expect(named.message).toContain("too little CUSTOM_FPGA");
  });

  it("shares the child with Placement's consumers, both ways, and frees it on delete", async () => {
    const { engine } = await fpgaCluster();
    const child = await fpgaChild(engine, "accel", "accel-fpga0", 1);
    const claim = (uuid: string) =>
      engine.consumers.allocate([
        {
          consumerUuid: uuid,
          projectId: "p",
          userId: "u",
          consumerType: null,
          allocations: { [child]: { CUSTOM_FPGA: 1 } },
        },
      ]);
    const { instance } = await engine.createInstance({ name: "a", flavor: "fpga" });
    const placement = await failure(claim("c1"));
    expect(placement.message).toContain(
      `Unable to create allocation for 'CUSTOM_FPGA' on resource provider '${child}'`,
    );
    // A Placement client cannot rewrite or drop the instance's consumer.
    expect((await failure(claim(instance.id))).details).toMatchObject({ reason: "instance_consumer" });
    expect((await failure(engine.consumers.remove(instance.id))).kind).toBe("conflict");
    await engine.deleteInstance("default", "a");
    expect(await engine.consumers.providerUsage(child)).toEqual({});
    expect(await engine.consumers.get(instance.id)).toBeUndefined();
    await claim("c1");
    const lxd = await failure(engine.createInstance({ name: "b", flavor: "fpga" }));
    expect(lxd.message).toContain("1 has too little CUSTOM_FPGA");
    // An instance id is a consumer uuid: one a consumer holds is refused to a create.
    await engine.consumers.remove("c1");
    await claim("9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d");
    const taken = await failure(
      engine.createInstance({ name: "c", uuid: "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d" }),
    );
    expect(taken.details).toMatchObject({ reason: "id_taken" });
  });

  it("chooses the child with the most room, and a bulk create spreads over the children", async () => {
    const { engine } = await fpgaCluster();
    const small = await fpgaChild(engine, "accel", "accel-fpga-small", 1);
    const large = await fpgaChild(engine, "accel", "accel-fpga-large", 2);
    const { instances } = await engine.bulkCreate([
      { name: "a", flavor: "fpga" },
      { name: "b", flavor: "fpga" },
      { name: "c", flavor: "fpga" },
    ]);
    const children = instances.map(
      (i) => i.allocations.find((row) => row.resourceClass === "CUSTOM_FPGA")?.member,
    );
    // The large child has the most room first; after one, both have one left: the lower uuid.
    expect(children[0]).toBe(large);
    expect(children.filter((c) => c === large)).toHaveLength(2);
    expect(children.filter((c) => c === small)).toHaveLength(1);
    expect(await failure(engine.bulkCreate([{ name: "d", flavor: "fpga" }]))).toBeInstanceOf(EngineError);
  });

  it("moves the allocation to the target's child, and keeps it through a reservation's commit and an edit", async () => {
    const { engine, store } = await fpgaCluster();
    const first = await fpgaChild(engine, "accel", "accel-fpga0", 1);
    await addMember(engine, "accel2");
    const second = await fpgaChild(engine, "accel2", "accel2-fpga0", 1);
    const { instance } = await engine.createInstance({ name: "r", flavor: "fpga", forthcoming: true });
    expect(instance.allocations).toContainEqual({
      ...onChild(instance.location === "accel" ? first : second),
      ledger: "forthcoming",
    });
    const from = instance.location === "accel" ? first : second;
    const to = from === first ? second : first;
    const target = from === first ? "accel2" : "accel";
    const moved = await engine.moveInstance("default", "r", target);
    expect(moved.instance.allocations).toContainEqual({ ...onChild(to), ledger: "forthcoming" });
    expect(await engine.consumers.providerUsage(from)).toEqual({});
    expect(await engine.consumers.providerUsage(to)).toEqual({ CUSTOM_FPGA: 1 });
    const committed = await engine.commitReservation("default", "r");
    expect(committed.allocations).toContainEqual(onChild(to));
    const edited = await engine.updateInstance("default", "r", { config: { "user.note": "x" } });
    expect(edited.allocations).toContainEqual(onChild(to));
    // Another engine on the same store counts the child's usage and refuses what does not fit.
    const other = (await testCluster({ store })).engine;
    await engine.moveInstance("default", "r", target === "accel" ? "accel2" : "accel");
    await other.sync();
    const stillFree = target === "accel" ? first : second;
    expect(await other.consumers.providerUsage(stillFree)).toEqual({});
    const placed = await other.createInstance({ name: "s", flavor: "fpga" });
    expect(placed.instance.allocations).toContainEqual(onChild(stillFree));
    expect((await failure(other.createInstance({ name: "t", flavor: "fpga" }))).kind).toBe(
      "insufficient_capacity",
    );
  });

  it("evacuates to the member whose child has room, and restores back onto the first child", async () => {
    const { engine } = await fpgaCluster();
    const first = await fpgaChild(engine, "accel", "accel-fpga0", 1);
    const { instance } = await engine.createInstance({ name: "a", flavor: "fpga" });
    expect(instance.allocations).toContainEqual(onChild(first));
    await addMember(engine, "accel2");
    const second = await fpgaChild(engine, "accel2", "accel2-fpga0", 1);
    expect((await engine.evacuateMember("accel")).moved).toHaveLength(1);
    const moved = await engine.getInstance("default", "a");
    expect(moved.location).toBe("accel2");
    expect(moved.allocations).toContainEqual(onChild(second));
    expect(await engine.consumers.providerUsage(first)).toEqual({});
    await engine.restoreMember("accel");
    const back = await engine.getInstance("default", "a");
    expect(back.location).toBe("accel");
    expect(back.allocations).toContainEqual(onChild(first));
    expect(await engine.consumers.providerUsage(second)).toEqual({});
  });

  it("takes a class the member has from the member, never from its children", async () => {
    const { engine } = await fpgaCluster();
    await fpgaChild(engine, "accel", "accel-fpga0", 4);
    const { instance } = await engine.createInstance({ name: "a", config: { "limits.cpu": "1" } });
    expect(instance.allocations.every((row) => row.member === instance.location)).toBe(true);
  });
});
