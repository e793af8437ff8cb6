import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

const sized = (name: string, memoryGiB: number) => ({ name, config: { "limits.memory": `${memoryGiB}GiB` } });

describe("bulk create", () => {
  it("places every instance against the working model and claims once", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    await addMember(engine, "n2", { memoryMb: 4096 });
    const outcome = await engine.bulkCreate([sized("a", 2), sized("b", 2), sized("c", 2), sized("d", 2)]);
    expect(outcome.instances.map((i) => i.name)).toEqual(["a", "b", "c", "d"]);
    expect(engine.getMember("n1").usage.used.MEMORY_MB).toBe(4096);
    expect(engine.getMember("n2").usage.used.MEMORY_MB).toBe(4096);
  });

  it("is all-or-nothing and names the first instance that could not be placed", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    await addMember(engine, "n2", { memoryMb: 4096 });
    const error = await failure(
      engine.bulkCreate([sized("a", 2), sized("b", 4), sized("c", 4)], { order: "request" }),
    );
    expect(error.kind).toBe("insufficient_capacity");
    expect(error.message).toBe(
      'Instance "c" (index 2) could not be placed: No suitable cluster member could be found for instance "c" in project "default": 2 members have too little MEMORY_MB',
    );
    expect(error.details).toMatchObject({ index: 2, name: "c" });
    expect(await engine.listInstances()).toEqual([]);
    expect(engine.getMember("n1").usage).toEqual({ used: {}, forthcoming: {}, pending: {} });
  });

  it("gains from placing larger instances first: a batch request order cannot fit does fit", async () => {
    const make = async () => {
      const { engine } = await testCluster();
      await addMember(engine, "n1", { memoryMb: 8192 });
      await addMember(engine, "n2", { memoryMb: 8192 });
      return engine;
    };
    const batch = [sized("s1", 2), sized("s2", 2), sized("s3", 2), sized("s4", 2), sized("big", 8)];
    // Request order: the default policy spreads the small ones 2+2 / 2+2, leaving no room for 8 GiB.
    const inOrder = await failure((await make()).bulkCreate(batch, { order: "request" }));
    expect(inOrder.message).toContain('Instance "big" (index 4)');
    // Largest first (the default without a scriptlet): big on n1, the small ones on n2.
    const engine = await make();
    const outcome = await engine.bulkCreate(batch);
    expect(outcome.placementOrder).toEqual([4, 0, 1, 2, 3]);
    expect(outcome.instances.map((i) => `${i.name}@${i.location}`)).toEqual([
      "s1@n2",
      "s2@n2",
      "s3@n2",
      "s4@n2",
      "big@n1",
    ]);
  });

  it("refuses duplicate names within the batch and names taken in the project", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    const duplicate = await failure(engine.bulkCreate([{ name: "a" }, { name: "a" }]));
    expect(duplicate.message).toBe(
      'Instance "a" (index 1) could not be placed: Duplicate instance name "a" (also at index 0)',
    );
    await engine.createInstance({ name: "taken" });
    const taken = await failure(engine.bulkCreate([{ name: "x" }, { name: "taken" }]));
    expect(taken.kind).toBe("conflict");
    expect(taken.message).toContain('Instance "taken" (index 1) could not be placed');
    expect((await engine.listInstances()).map((i) => i.name)).toEqual(["taken"]);
  });
});

describe("reservations", () => {
  it("creates an unnamed reservation that counts, is addressable by UUID and commits", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    const uuid = "0b7d3c66-2f1e-4f3a-9d7e-0a1b2c3d4e5f";
    const reserved = await engine.createInstance({
      uuid,
      forthcoming: true,
      config: { "limits.memory": "3GiB" },
    });
    expect(reserved.instance).toMatchObject({ id: uuid, name: "", forthcoming: true, location: "n1" });
    expect(engine.getMember("n1").usage.forthcoming).toEqual({ MEMORY_MB: 3072 });
    // The reserved room is not available to real instances.
    const full = await failure(engine.createInstance(sized("x", 2)));
    expect(full.kind).toBe("insufficient_capacity");
    // Committing needs a name; it never fails for capacity, even after the inventory shrank.
    const noName = await failure(engine.commitReservation("default", uuid));
    expect(noName.kind).toBe("invalid");
    const inventories = engine.inventories("n1");
    await engine.setInventories("n1", { MEMORY_MB: { total: 1024 } }, inventories.generation);
    const committed = await engine.commitReservation("default", uuid, { name: "web1" });
    expect(committed).toMatchObject({ id: uuid, name: "web1", forthcoming: false, location: "n1" });
    expect(engine.getMember("n1").usage).toMatchObject({ used: { MEMORY_MB: 3072 }, forthcoming: {} });
    expect((await engine.getInstance("default", "web1")).id).toBe(uuid);
  });

  it("commit re-checks only growth when it resizes the reservation", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    await engine.createInstance({ name: "r", forthcoming: true, config: { "limits.memory": "2GiB" } });
    await engine.createInstance(sized("other", 1));
    const tooBig = await failure(
      engine.commitReservation("default", "r", { changes: { config: { "limits.memory": "4GiB" } } }),
    );
    expect(tooBig.kind).toBe("insufficient_capacity");
    expect((await engine.getInstance("default", "r")).forthcoming).toBe(true);
    const committed = await engine.commitReservation("default", "r", {
      changes: { config: { "limits.memory": "3GiB" } },
    });
    expect(committed.allocations).toEqual([
      { member: "n1", resourceClass: "MEMORY_MB", ledger: "used", amount: 3072 },
    ]);
  });

  it("can be modified, renamed and deleted; growth is re-checked", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    const reserved = await engine.createInstance({
      name: "r",
      forthcoming: true,
      config: { "limits.memory": "1GiB" },
    });
    const grown = await engine.updateInstance("default", reserved.instance.id, {
      config: { "limits.memory": "2GiB" },
    });
    expect(grown.allocations).toEqual([
      { member: "n1", resourceClass: "MEMORY_MB", ledger: "forthcoming", amount: 2048 },
    ]);
    const tooBig = await failure(
      engine.updateInstance("default", "r", { config: { "limits.memory": "8GiB" } }),
    );
    expect(tooBig.kind).toBe("insufficient_capacity");
    await engine.renameInstance("default", "r", "r2");
    expect((await engine.getInstance("default", reserved.instance.id)).name).toBe("r2");
    await engine.deleteInstance("default", "r2");
    expect(engine.getMember("n1").usage.forthcoming).toEqual({});
  });

  it("can be bulk-created and moved as record edits", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 4096 });
    await addMember(engine, "n2", { memoryMb: 4096 });
    const outcome = await engine.bulkCreate([
      { forthcoming: true, config: { "limits.memory": "2GiB" } },
      { forthcoming: true, config: { "limits.memory": "2GiB" } },
    ]);
    expect(outcome.instances.every((i) => i.forthcoming && i.name === "")).toBe(true);
    const moved = await engine.moveInstance("default", outcome.instances[0]!.id, "n2");
    expect(moved.instance.location).toBe("n2");
    expect(engine.getMember("n2").usage.forthcoming).toEqual({ MEMORY_MB: 4096 });
  });
});
