import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../runtime/events.js";
import { addGroups, addMember, heartbeatAll, testCluster } from "../testing/cluster.fixture.js";
import { LAST_MOVE_KEY } from "./automatic-rebalance.js";

const MINUTE = 60_000;
const STATEFUL_VM = {
  type: "virtual-machine" as const,
  config: { "migration.stateful": "true", "limits.cpu": "2", "limits.memory": "4GiB" },
};

/** Three members; "busy" holds six live-migratable VMs, a stateless VM and a container. */
async function crowded() {
  const cluster = await testCluster();
  const { engine } = cluster;
  for (const name of ["busy", "idle1", "idle2"]) await addMember(engine, name, { vcpu: 16, memoryMb: 32768 });
  for (let i = 0; i < 6; i++)
    await engine.instances.create({ name: `vm${i}`, ...STATEFUL_VM }, { target: "busy" });
  await engine.instances.create(
    { name: "stateless", type: "virtual-machine", config: { "limits.cpu": "2", "limits.memory": "4GiB" } },
    { target: "busy" },
  );
  await engine.instances.create(
    { name: "ct", config: { "limits.cpu": "2", "limits.memory": "4GiB" } },
    { target: "busy" },
  );
  await engine.config.set({ "cluster.rebalance.interval": "1", "cluster.rebalance.batch": "2" });
  return cluster;
}

const where = async (engine: Awaited<ReturnType<typeof testCluster>>["engine"], name: string) =>
  (await engine.instances.get("default", name)).location;

describe("automatic rebalancing (Incus's cluster.rebalance.*)", () => {
  it("moves at most batch live-migratable instances off the busiest member one interval later, stamping them", async () => {
    const { engine, clock } = await crowded();
    const events: EngineEvent[] = [];
    engine.events.subscribe((event) => events.push(event));
    // busy: 16 of 16 CPUs and 32 of 32 GiB: score 100; the others 0.
    expect((await engine.tick()).rebalanced).toBeUndefined();
    clock.advance(MINUTE - 1);
    await heartbeatAll(engine);
    expect((await engine.tick()).rebalanced).toBeUndefined();
    clock.advance(1);
    const run = (await engine.tick()).rebalanced!;
    expect(run.applied).toBe(true);
    expect(run.groups).toEqual([
      {
        architecture: "x86_64",
        members: [
          { name: "busy", score: 100 },
          { name: "idle1", score: 0 },
          { name: "idle2", score: 0 },
        ],
        differencePercent: 100,
        triggered: true,
      },
    ]);
    // Incus's target: the least loaded allowed member by the scores at the start of the run (the
    // last of the busiest-first list), until a move would load it past the midpoint (50).
    expect(run.moves.map((move) => [move.name, move.from, move.to, move.toScoreAfter])).toEqual([
      ["vm0", "busy", "idle2", 12],
      ["vm1", "busy", "idle2", 25],
    ]);
    const seconds = String(Math.trunc(clock.now().getTime() / 1000));
    for (const name of ["vm0", "vm1"]) {
      const moved = await engine.instances.get("default", name);
      expect(moved.config[LAST_MOVE_KEY]).toBe(seconds);
      expect(moved.decision?.reason).toBe("rebalance");
    }
    const reasons = Object.fromEntries(run.stayed.map((stayed) => [stayed.name, stayed.reason]));
    expect(reasons).toMatchObject({
      ct: "not-live-migratable",
      stateless: "not-live-migratable",
      vm2: "batch-full",
    });
    expect(run.stayed.find((stayed) => stayed.name === "ct")?.message).toBe(
      "it cannot live-migrate: it is not a virtual machine",
    );
    expect(engine.metrics().placements.automatic_rebalance).toBe(2);
    const lifecycle = events.flatMap((event) => (event.type === "lifecycle" ? [event] : []));
    expect(lifecycle.filter((event) => event.action === "instance-moved")).toEqual([
      expect.objectContaining({
        instance: "vm0",
        context: { from: "busy", to: "idle2", reason: "rebalance" },
      }),
      expect.objectContaining({
        instance: "vm1",
        context: { from: "busy", to: "idle2", reason: "rebalance" },
      }),
    ]);
    expect(lifecycle.find((event) => event.action === "cluster-rebalanced")).toMatchObject({
      member: "busy",
      context: { moved: 2, stayed: 6, score: 100, difference_percent: 100, threshold: 20 },
    });
  });

  it("does not move an instance again within the cooldown", async () => {
    const { engine, clock } = await crowded();
    await engine.tick();
    clock.advance(MINUTE);
    await heartbeatAll(engine);
    const first = (await engine.tick()).rebalanced!;
    expect(first.moves.map((move) => move.name)).toEqual(["vm0", "vm1"]);
    // An operator puts vm0 back: the next run leaves it there (cooldown 6H), and moves others.
    await engine.instances.move("default", "vm0", "busy");
    clock.advance(MINUTE);
    await heartbeatAll(engine);
    const second = (await engine.tick()).rebalanced!;
    expect(second.moves.map((move) => move.name)).not.toContain("vm0");
    expect(second.stayed.find((stayed) => stayed.name === "vm0")).toMatchObject({
      reason: "cooling-down",
      member: "busy",
    });
    expect(await where(engine, "vm0")).toBe("busy");
    // Past the cooldown it may move again.
    await engine.config.set({ "cluster.rebalance.cooldown": "2M" });
    clock.advance(2 * MINUTE);
    await heartbeatAll(engine);
    const third = await engine.rebalance.automaticDryRun();
    expect(third.stayed.find((stayed) => stayed.name === "vm0")?.reason).not.toBe("cooling-down");
  });

  it("keeps an instance the scriptlet refuses where it is, and asks it with reason rebalance, least loaded first", async () => {
    const { engine, clock } = await crowded();
    await addMember(engine, "half", { vcpu: 16, memoryMb: 32768 });
    await engine.instances.create(
      { name: "filler", config: { "limits.cpu": "8", "limits.memory": "16GiB" } },
      { target: "half" },
    );
    await engine.config.set({
      "instances.placement.scriptlet": [
        "def instance_placement(request, candidate_members):",
        '    if request.reason != "rebalance":',
        "        return",
        '    log_info("candidates", [m.server_name for m in candidate_members])',
        '    if request.name == "vm0":',
        '        return "vm0 stays"',
        "    set_target(candidate_members[-1].server_name)",
        "",
      ].join("\n"),
    });
    await engine.tick();
    clock.advance(MINUTE);
    await heartbeatAll(engine);
    const run = (await engine.tick()).rebalanced!;
    expect(run.stayed.find((stayed) => stayed.name === "vm0")).toMatchObject({ reason: "scriptlet" });
    expect(run.stayed.find((stayed) => stayed.name === "vm0")?.message).toContain("vm0 stays");
    expect(await where(engine, "vm0")).toBe("busy");
    // The scriptlet took the most loaded candidate ("half", score 50): one move fills it to its midpoint.
    expect(run.moves.map((move) => [move.name, move.to])).toEqual([["vm1", "half"]]);
    expect(run.stayed.find((stayed) => stayed.name === "vm2")?.reason).toBe("balanced");
  });

  it("does nothing below the threshold, and a dry run plans without moving or stamping", async () => {
    const { engine } = await crowded();
    const dry = await engine.rebalance.automaticDryRun();
    expect(dry.applied).toBe(false);
    expect(dry.moves).toHaveLength(2);
    expect(await where(engine, "vm0")).toBe("busy");
    expect((await engine.instances.get("default", "vm0")).config[LAST_MOVE_KEY]).toBeUndefined();
    // Three, three and two instances score 37, 37 and 25: a 32 % difference, under a threshold of 40.
    await engine.config.set({ "cluster.rebalance.threshold": "40" });
    for (const [name, target] of [
      ["vm0", "idle1"],
      ["vm1", "idle1"],
      ["vm2", "idle1"],
      ["vm3", "idle2"],
      ["vm4", "idle2"],
    ] as const)
      await engine.instances.move("default", name, target);
    const calm = await engine.rebalance.automaticDryRun();
    expect(calm.groups[0]?.triggered).toBe(false);
    expect(calm.moves).toEqual([]);
  });

  it("never moves an instance where its project may not go (restricted.cluster.groups)", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "blue");
    await addMember(engine, "busy", { vcpu: 16, memoryMb: 32768, groups: ["blue"] });
    await addMember(engine, "inside", { vcpu: 16, memoryMb: 32768, groups: ["blue"] });
    await addMember(engine, "outside", { vcpu: 16, memoryMb: 32768 });
    await engine.catalog.createProject({
      name: "p",
      description: "",
      config: { "restricted.cluster.groups": "blue" },
    });
    for (let i = 0; i < 4; i++)
      await engine.instances.create(
        { name: `vm${i}`, ...STATEFUL_VM, profiles: [] },
        { project: "p", target: "busy" },
      );
    await engine.instances.create({ name: "free", ...STATEFUL_VM }, { target: "busy" });
    await engine.config.set({ "cluster.rebalance.batch": "3" });
    const run = await engine.rebalance.automaticDryRun();
    // "outside" is the least loaded (it joined last among the idle ones): only the default project's VM may go there.
    expect(run.moves.map((move) => [move.project, move.name, move.to])).toEqual([
      ["default", "free", "outside"],
      ["p", "vm0", "inside"],
      ["p", "vm1", "inside"],
    ]);
  });

  it("only the engine holding the healer lease runs it", async () => {
    const { engine, clock, store } = await crowded();
    const { engine: other } = await testCluster({ store, clock });
    await engine.tick();
    await other.tick();
    clock.advance(MINUTE);
    await heartbeatAll(engine);
    const [a, b] = [await engine.tick(), await other.tick()];
    expect([a.role, b.role]).toEqual(["healer", "standby"]);
    expect(a.rebalanced?.moves).toHaveLength(2);
    expect(b.rebalanced).toBeUndefined();
  });
});
