import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { addGroups, addMember, heartbeatAll, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";
import { Engine } from "./engine.js";

const sized = (name: string, memoryGiB: number) => ({ name, config: { "limits.memory": `${memoryGiB}GiB` } });

describe("evacuation and restore", () => {
  it("moves every instance off the member, records the origin, and restore brings them back", async () => {
    const { engine } = await testCluster();
    for (const name of ["n1", "n2", "n3"]) await addMember(engine, name);
    await engine.instances.create({ name: "a" }, { target: "n1" });
    await engine.instances.create({ name: "b" }, { target: "n1" });
    await engine.instances.create({ name: "stay", config: { "cluster.evacuate": "stop" } }, { target: "n1" });
    const outcome = await engine.members.evacuate("n1");
    expect(outcome.moved.map((m) => `${m.name}:${m.from}->${m.to}`)).toEqual(["a:n1->n2", "b:n1->n3"]);
    expect(outcome.stayed.map((s) => s.name)).toEqual(["stay"]);
    expect(engine.members.get("n1").status).toBe("Evacuated");
    expect((await engine.instances.get("default", "a")).origin).toBe("n1");
    // Evacuated members take no new instances.
    expect((await engine.instances.create({ name: "c" })).instance.location).toBe("n2");
    const restored = await engine.members.restore("n1");
    expect(restored.moved.map((m) => m.name).sort()).toEqual(["a", "b"]);
    expect((await engine.instances.get("default", "a")).location).toBe("n1");
    expect((await engine.instances.get("default", "a")).origin).toBeNull();
    expect(engine.members.get("n1").status).toBe("Online");
  });

  it("is all-or-nothing: when one instance fits nowhere, nothing moves and the member stays available", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 8192 });
    await addMember(engine, "n2", { memoryMb: 4096 });
    await engine.instances.create(sized("small", 2), { target: "n1" });
    await engine.instances.create(sized("large", 4), { target: "n1" });
    const error = await failure(engine.members.evacuate("n1"));
    expect(error.message).toBe(
      'Failed to evacuate cluster member "n1": instance "large" in project "default": No suitable cluster member could be found for instance "large" in project "default": 1 member is evacuated, 1 has too little MEMORY_MB',
    );
    expect((await engine.instances.get("default", "small")).location).toBe("n1");
    expect(engine.members.get("n1").status).toBe("Online");
  });

  it("heals members offline beyond cluster.healing_threshold (reason relocation)", async () => {
    const { engine, clock } = await testCluster();
    await engine.config.set({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "60" });
    for (const name of ["n1", "n2"]) await addMember(engine, name);
    await engine.instances.create({ name: "a" }, { target: "n1" });
    clock.advance(30_000);
    await engine.members.heartbeat("n2");
    const first = await engine.tick();
    expect(first.offline).toEqual(["n1"]);
    expect(first.healed).toEqual([]);
    clock.advance(40_000);
    await engine.members.heartbeat("n2");
    const second = await engine.tick();
    expect(second.healed.map((h) => h.moved.map((m) => `${m.name}->${m.to}`))).toEqual([["a->n2"]]);
    expect((await engine.instances.get("default", "a")).origin).toBe("n1");
  });
});

describe("healing from several processes", () => {
  it("two engines ticking at once relocate each instance once and leave the member evacuated", async () => {
    const store = new MemoryStore();
    const first = await testCluster({ store });
    await first.engine.config.set({ "cluster.healing_threshold": "60" });
    for (const name of ["n1", "n2", "n3"]) await addMember(first.engine, name);
    for (const name of ["a", "b", "c"]) await first.engine.instances.create({ name }, { target: "n1" });
    const second = await Engine.open({ store, clock: first.clock });
    first.clock.advance(90_000);
    await first.engine.members.heartbeat("n2");
    await first.engine.members.heartbeat("n3");
    const reports = await Promise.all([first.engine.tick(), second.tick()]);
    const moved = reports.flatMap((report) => report.healed.flatMap((healed) => healed.moved));
    expect(moved.length).toBe(3);
    expect((await store.getMember("n1"))?.evacuated).toBe(true);
    const instances = await store.listInstances();
    expect(instances.every((instance) => instance.location !== "n1" && instance.origin === "n1")).toBe(true);
  });
});

describe("several engines on one store", () => {
  it("an engine learns members registered by another (heartbeats, tick)", async () => {
    const store = new MemoryStore();
    const first = await testCluster({ store });
    const second = await Engine.open({ store, clock: first.clock });
    await addMember(first.engine, "n1");
    await first.engine.instances.create({ name: "a" });
    first.clock.advance(5_000);
    const beat = await second.members.heartbeat("n1");
    expect(beat.instances).toBe(1);
    await addMember(first.engine, "n2");
    await second.tick();
    expect(second.members.list().map((member) => member.record.name)).toEqual(["n1", "n2"]);
    expect((await second.instances.create({ name: "b" })).instance.location).toBe("n2");
  });
});

describe("moves", () => {
  it("moves to a group with reason relocation and refuses the current member", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "g1", "g2");
    await addMember(engine, "n1", { groups: ["g1"] });
    await addMember(engine, "n2", { groups: ["g2"] });
    await engine.instances.create({ name: "a" }, { target: "n1" });
    const moved = await engine.instances.move("default", "a", "@g2");
    expect(moved.instance.location).toBe("n2");
    const same = await failure(engine.instances.move("default", "a", "n2"));
    expect(same.message).toBe("Requested target server is the same as current server");
    const within = await failure(engine.instances.move("default", "a", "@g2"));
    expect(within.message).toContain('1 member is not in group "g2", 1 is the instance\'s current member');
  });
});

describe("moves to a member target", () => {
  it("refuses an offline member with LXD's text and accepts it again once it heartbeats", async () => {
    const { engine, clock } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await engine.instances.create({ name: "a" }, { target: "n1" });
    clock.advance(60_000);
    await engine.members.heartbeat("n1");
    const offline = await failure(engine.instances.move("default", "a", "n2"));
    expect(offline.kind).toBe("invalid");
    expect(offline.message).toBe("Target cluster member is offline");
    expect((await engine.instances.get("default", "a")).location).toBe("n1");
    await engine.members.heartbeat("n2");
    expect((await engine.instances.move("default", "a", "n2")).instance.location).toBe("n2");
  });

  it("answers an unknown member target with LXD's not-found text", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.instances.create({ name: "a" });
    const unknown = await failure(engine.instances.move("default", "a", "nope"));
    expect(unknown.kind).toBe("not_found");
    expect(unknown.message).toBe('Cluster member "nope" not found');
  });
});

describe("rebalancing", () => {
  it("plans greedy moves that lower the imbalance score and applies them in one claim", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 16384 });
    for (const name of ["a", "b", "c", "d"]) await engine.instances.create(sized(name, 2), { target: "n1" });
    await addMember(engine, "n2", { memoryMb: 16384 });
    const before = engine.rebalance.score();
    const plan = await engine.rebalance.plan();
    expect(plan.moves.length).toBe(2);
    expect(plan.moves.every((move) => move.from === "n1" && move.to === "n2" && move.gain > 0)).toBe(true);
    expect(plan.scoreBefore).toBeCloseTo(before, 12);
    expect(plan.scoreAfter).toBeLessThan(1e-9);
    expect((await engine.instances.list({ location: "n2" })).length).toBe(0);
    const applied = await engine.rebalance.apply();
    expect(applied.applied).toBe(true);
    expect((await engine.instances.list({ location: "n2" })).length).toBe(2);
    expect(engine.rebalance.score()).toBeLessThan(1e-9);
    expect((await engine.rebalance.plan()).moves).toEqual([]);
  });

  it("checks every move with the scriptlet (reason rebalance) and skips refused ones", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 16384 });
    for (const name of ["a", "b", "c", "d", "e", "f"])
      await engine.instances.create(sized(name, 2), { target: "n1" });
    await addMember(engine, "n2", { memoryMb: 16384 });
    await addMember(engine, "n3", { memoryMb: 16384 });
    await engine.config.set({
      "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    if request.reason != "rebalance":
        return "unexpected reason " + request.reason
    if candidate_members[0].server_name == "n2":
        return "n2 is being drained"
    return
`,
    });
    const plan = await engine.rebalance.plan();
    expect(plan.moves.length).toBeGreaterThan(0);
    expect(plan.moves.every((move) => move.to === "n3")).toBe(true);
    expect(plan.scoreAfter).toBeLessThan(plan.scoreBefore);
  });

  it("prefers moving reservations", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { memoryMb: 16384 });
    await engine.instances.create(sized("real", 2), { target: "n1" });
    await engine.instances.create({ ...sized("reserved", 2), forthcoming: true }, { target: "n1" });
    await addMember(engine, "n2", { memoryMb: 16384 });
    const plan = await engine.rebalance.plan();
    expect(plan.moves.map((move) => move.name)).toEqual(["reserved"]);
  });

  it("scores an even cluster as balanced", async () => {
    const { engine } = await testCluster();
    for (const name of ["n1", "n2", "n3"]) {
      await addMember(engine, name, { memoryMb: 8192 });
      await engine.instances.create(sized(`i-${name}`, 2), { target: name });
    }
    expect(engine.rebalance.score()).toBeLessThan(1e-12);
    expect((await engine.rebalance.plan()).moves).toEqual([]);
  });
});

describe("concurrency", () => {
  it("many simultaneous placements never overcommit one store", async () => {
    const { engine } = await testCluster();
    for (const name of ["n1", "n2", "n3", "n4"])
      await addMember(engine, name, { vcpu: 64, memoryMb: 10 * 1024 });
    const attempts = Array.from({ length: 100 }, (_, i) =>
      engine.instances.create(sized(`c${i}`, 1)).then(
        () => "ok" as const,
        (error: unknown) => {
          if (error instanceof EngineError && error.kind === "insufficient_capacity") return "full" as const;
          throw error;
        },
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === "ok").length).toBe(40);
    for (const member of engine.members.list()) expect(member.usage.used.MEMORY_MB).toBe(10 * 1024);
  });

  it("two engines (processes) sharing one store never overcommit and re-plan lost races", async () => {
    const store = new MemoryStore();
    const first = await testCluster({ store });
    for (const name of ["n1", "n2"]) await addMember(first.engine, name, { memoryMb: 8 * 1024 });
    const second = await Engine.open({ store, clock: first.clock });
    const fire = (engine: Engine, prefix: string) =>
      Array.from({ length: 12 }, (_, i) =>
        engine.instances.create(sized(`${prefix}${i}`, 1)).then(
          (outcome) => outcome.attempts,
          (error: unknown) => {
            if (error instanceof EngineError && error.kind === "insufficient_capacity") return 0;
            throw error;
          },
        ),
      );
    const results = await Promise.all([...fire(first.engine, "a"), ...fire(second, "b")]);
    expect(results.filter((attempts) => attempts > 0).length).toBe(16);
    const usage = await store.memberUsage(["n1", "n2"]);
    expect(usage.map((row) => row.used.MEMORY_MB)).toEqual([8192, 8192]);
    // Allocations sum to usage.
    const instances = await store.listInstances();
    const sum = instances.flatMap((i) => i.allocations).reduce((total, row) => total + row.amount, 0);
    expect(sum).toBe(16 * 1024);
  });
});

describe("server config", () => {
  it("validates values, bumps the version and other engines pick changes up", async () => {
    const store = new MemoryStore();
    const { engine } = await testCluster({ store });
    const other = await Engine.open({ store });
    const bad = await failure(engine.config.set({ "cluster.offline_threshold": "5" }));
    expect(bad.kind).toBe("invalid");
    expect(bad.message).toBe(
      'Cannot set "cluster.offline_threshold" to "5": must be an integer of seconds from 10 to 86400',
    );
    const before = (await engine.config.get()).version;
    const next = await engine.config.set({ "cluster.offline_threshold": "30" });
    expect(next.version).toBeGreaterThan(before);
    expect((await other.config.get()).values["cluster.offline_threshold"]).toBe("30");
    const removed = await engine.config.set({ "cluster.offline_threshold": "" });
    expect(removed.values).toEqual({});
  });

  it("re-derives standard inventories from reported resources and the ratio config", async () => {
    const { engine } = await testCluster();
    await engine.members.create({
      name: "n1",
      resources: { cpu: { total: 8, architecture: "aarch64" }, memory: { total: 16 * 1024 ** 3 } },
    });
    expect(engine.members.get("n1").record.architecture).toBe("aarch64");
    expect(engine.members.inventories("n1").inventories.VCPU).toMatchObject({
      total: 8,
      allocationRatio: 16,
      source: "derived",
    });
    await engine.config.set({ "scheduler.cpu_allocation_ratio": "2.0" });
    expect(engine.members.inventories("n1").inventories.VCPU?.allocationRatio).toBe(2);
    const generation = engine.members.inventories("n1").generation;
    await engine.members.setInventories("n1", { VCPU: { total: 4 } }, generation);
    expect(engine.members.inventories("n1").inventories.VCPU).toMatchObject({
      total: 4,
      allocationRatio: 1,
      source: "explicit",
    });
    const stale = await failure(engine.members.setInventories("n1", { VCPU: { total: 2 } }, generation));
    expect(stale.kind).toBe("conflict");
    await engine.members.deleteInventory("n1", "VCPU", engine.members.inventories("n1").generation);
    expect(engine.members.inventories("n1").inventories.VCPU).toMatchObject({ total: 8, source: "derived" });
    await heartbeatAll(engine);
  });

  it("refuses deleting standard and in-use resource classes", async () => {
    const { engine } = await testCluster();
    expect((await failure(engine.catalog.deleteResourceClass("VCPU"))).message).toBe(
      "Cannot delete standard resource class VCPU",
    );
    await engine.catalog.createResourceClass("CUSTOM_GPU");
    await engine.members.create({ name: "n1", inventories: { CUSTOM_GPU: { total: 2 } } });
    const inUse = await failure(engine.catalog.deleteResourceClass("CUSTOM_GPU"));
    expect(inUse.kind).toBe("conflict");
    expect(inUse.message).toBe("Error in delete resource class 'CUSTOM_GPU': Class is in use in inventory");
  });
});
