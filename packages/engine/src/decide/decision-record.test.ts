import { describe, expect, it } from "vitest";
import { addGroups, addMember, heartbeatAll, testCluster } from "../testing/cluster.fixture.js";
import { LEADING_CANDIDATES, LOG_LINE_CHARS, LOG_LINES_KEPT } from "./record.js";
import { REJECTION_SAMPLE } from "./tally.js";

const withMemory = (name: string, memoryGiB: number) => ({
  name,
  config: { "limits.memory": `${memoryGiB}GiB` },
});

/** n1..n3 fit, n4 is evacuated, n5 can't run x86_64, n6 is full, n7 went offline. */
async function mixedCluster() {
  const cluster = await testCluster();
  const { engine, clock } = cluster;
  for (const name of ["n1", "n2", "n3", "n4"]) await addMember(engine, name);
  await addMember(engine, "n5", { architecture: "aarch64" });
  await addMember(engine, "n6", { memoryMb: 2048 });
  await addMember(engine, "n7");
  await engine.evacuateMember("n4");
  clock.advance(15_000);
  for (const name of ["n1", "n2", "n3", "n4", "n5", "n6"]) await engine.heartbeat(name);
  clock.advance(10_000); // n7 silent for 25 s > the 20 s default
  return cluster;
}

describe("decision records", () => {
  it("say which policy decided, how many members passed, and why each other was turned down", async () => {
    const { engine, store } = await mixedCluster();
    const { instance } = await engine.createInstance({ ...withMemory("web1", 4), architecture: "x86_64" });
    expect(instance.location).toBe("n1");
    const decision = instance.decision!;
    expect(decision).toMatchObject({
      reason: "new",
      decidedBy: "default",
      member: "n1",
      target: null,
      placementGroup: null,
      members: 7,
      candidates: { count: 3, leading: ["n1"] },
      log: [],
      logDropped: 0,
      scriptlet: null,
    });
    expect(decision.rejections).toEqual([
      { code: "evacuated", count: 1, text: "1 member is evacuated", members: ["n4"], capacity: false },
      { code: "arch:x86_64", count: 1, text: "1 member can't run x86_64", members: ["n5"], capacity: false },
      {
        code: "capacity:MEMORY_MB",
        count: 1,
        text: "1 member has too little MEMORY_MB",
        members: ["n6"],
        capacity: true,
      },
      { code: "offline", count: 1, text: "1 member is offline", members: ["n7"], capacity: false },
    ]);
    // Durable: the store keeps it, and it is frozen (shared, never copied).
    expect((await store.getInstance("default", "web1"))?.decision).toEqual(decision);
    expect(Object.isFrozen(decision) && Object.isFrozen(decision.rejections)).toBe(true);
  });

  it("follow the cluster: a member record change is seen by the next decision", async () => {
    const { engine } = await mixedCluster();
    await engine.createInstance({ name: "a" });
    await engine.restoreMember("n4");
    const { instance } = await engine.createInstance({ name: "b", architecture: "x86_64" });
    expect(instance.decision!.rejections.map((group) => group.code)).toEqual(["arch:x86_64", "offline"]);
    expect(instance.decision!.candidates!.count).toBe(5);
  });

  it("keep what the scriptlet logged and cost, and the candidates in the order it saw them", async () => {
    const { engine } = await mixedCluster();
    await engine.setConfig({
      "instances.placement.scriptlet": [
        "def instance_placement(request, candidate_members):",
        '    log_info("placing ", request.name)',
        '    log_warn("picking the last of ", len(candidate_members))',
        "    set_target(candidate_members[-1].server_name)",
      ].join("\n"),
    });
    const { instance } = await engine.createInstance(withMemory("web1", 4));
    const decision = instance.decision!;
    expect(decision.decidedBy).toBe("scriptlet");
    // No architecture asked for: the aarch64 member is a candidate too.
    expect(decision.member).toBe("n5");
    expect(decision.candidates).toEqual({ count: 4, leading: ["n1", "n2", "n3", "n5"] });
    expect(decision.log).toEqual([
      { level: "info", message: "placing web1" },
      { level: "warn", message: "picking the last of 4" },
    ]);
    expect(decision.scriptlet!.steps).toBeGreaterThan(0);
    expect(decision.rejections.map((group) => group.code)).toEqual([
      "evacuated",
      "capacity:MEMORY_MB",
      "offline",
    ]);
  });

  it("stay bounded: leading candidates, members per reason and log lines are capped", async () => {
    const { engine } = await testCluster();
    for (let index = 1; index <= 30; index++) {
      await addMember(engine, `n${index}`, { memoryMb: index <= 12 ? 1024 : 65536 });
    }
    await engine.setConfig({
      "instances.placement.scriptlet": [
        "def instance_placement(request, candidate_members):",
        "    for i in range(40):",
        `        log_info("line ", i, " ", "x" * ${LOG_LINE_CHARS * 2})`,
      ].join("\n"),
    });
    const decision = (await engine.createInstance(withMemory("big", 4))).instance.decision!;
    expect(decision.candidates).toEqual({
      count: 18,
      leading: Array.from({ length: LEADING_CANDIDATES }, (_, i) => `n${i + 13}`),
    });
    expect(decision.rejections).toEqual([
      {
        code: "capacity:MEMORY_MB",
        count: 12,
        text: "12 members have too little MEMORY_MB",
        members: Array.from({ length: REJECTION_SAMPLE }, (_, i) => `n${i + 1}`),
        capacity: true,
      },
    ]);
    expect(decision.log).toHaveLength(LOG_LINES_KEPT);
    expect(decision.logDropped).toBe(40 - LOG_LINES_KEPT);
    expect(decision.log[0]!.message).toHaveLength(LOG_LINE_CHARS);
    expect(decision.log[0]!.message.endsWith("…")).toBe(true);
  });

  it("name the placement group policy and the members its strict rule turned down", async () => {
    const { engine } = await testCluster();
    for (const name of ["n1", "n2", "n3"]) await addMember(engine, name);
    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "pg",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    const member = (name: string) => ({ name, config: { "placement.group": "pg" } });
    await engine.createInstance(member("a"));
    const { instance } = await engine.createInstance(member("b"));
    expect(instance.decision).toMatchObject({
      decidedBy: "default",
      placementGroup: { name: "pg", policy: "spread", rigor: "strict" },
      candidates: { count: 2, leading: ["n2", "n3"] },
      rejections: [
        {
          code: "spread:pg",
          count: 1,
          text: '1 member already hosts an instance of placement group "pg" (strict spread)',
          members: ["n1"],
          capacity: false,
        },
      ],
    });
  });

  it("follow the instance: a target, an evacuation, a restore, a move and a rebalance each write theirs", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "g");
    for (const name of ["n1", "n2", "n3"]) await addMember(engine, name, { groups: ["g"] });
    const placed = await engine.createInstance({ name: "a" }, { target: "n1" });
    expect(placed.instance.decision).toMatchObject({
      reason: "new",
      decidedBy: "target",
      target: "n1",
      candidates: null,
      rejections: [],
    });
    await engine.evacuateMember("n1");
    const evacuated = (await engine.getInstance("default", "a")).decision!;
    expect(evacuated).toMatchObject({ reason: "evacuation", decidedBy: "default", member: "n2" });
    expect(evacuated.rejections).toEqual([
      { code: "evacuated", count: 1, text: "1 member is evacuated", members: ["n1"], capacity: false },
    ]);
    await engine.restoreMember("n1");
    expect((await engine.getInstance("default", "a")).decision).toMatchObject({
      reason: "restore",
      decidedBy: "restore",
      member: "n1",
      candidates: null,
    });
    await engine.moveInstance("default", "a", "@g");
    const moved = (await engine.getInstance("default", "a")).decision!;
    expect(moved).toMatchObject({ reason: "relocation", decidedBy: "default", target: "@g", member: "n2" });
    expect(moved.rejections[0]).toMatchObject({ code: "excluded", members: ["n1"] });
    // A rename keeps the decision that placed it.
    await engine.renameInstance("default", "a", "b");
    expect((await engine.getInstance("default", "b")).decision).toEqual(moved);
    for (const name of ["c", "d", "e"]) await engine.createInstance({ name }, { target: "n3" });
    await heartbeatAll(engine);
    const plan = await engine.applyRebalance();
    expect(plan.moves.length).toBeGreaterThan(0);
    const rebalanced = await engine.getInstance("default", plan.moves[0]!.name);
    expect(rebalanced.decision).toMatchObject({
      reason: "rebalance",
      decidedBy: "rebalance",
      member: plan.moves[0]!.to,
    });
  });

  it("are written for every instance of a bulk create", async () => {
    const { engine } = await testCluster();
    for (const name of ["n1", "n2"]) await addMember(engine, name);
    const outcome = await engine.bulkCreate([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(outcome.instances.map((record) => record.decision?.member)).toEqual(["n1", "n2", "n1"]);
    expect(outcome.instances.every((record) => record.decision?.candidates?.count === 2)).toBe(true);
  });
});

describe("dry runs", () => {
  it("answer the same rejections a placement would record", async () => {
    const { engine } = await mixedCluster();
    const dry = await engine.dryRun(withMemory("web1", 4));
    expect(dry.decision).toEqual({ outcome: "placed", member: "n1", decidedBy: "default" });
    expect(dry.rejections.map((group) => `${group.code}:${group.members.join(",")}`)).toEqual([
      "evacuated:n4",
      "capacity:MEMORY_MB:n6",
      "offline:n7",
    ]);
  });

  it("answer why nothing fits, the first members of each reason named", async () => {
    const { engine } = await mixedCluster();
    const dry = await engine.dryRun(withMemory("huge", 512));
    expect(dry.decision.outcome).toBe("rejected");
    expect(dry.rejections).toEqual([
      {
        code: "capacity:MEMORY_MB",
        count: 5,
        text: "5 members have too little MEMORY_MB",
        members: ["n1", "n2", "n3", "n5", "n6"],
        capacity: true,
      },
      { code: "evacuated", count: 1, text: "1 member is evacuated", members: ["n4"], capacity: false },
      { code: "offline", count: 1, text: "1 member is offline", members: ["n7"], capacity: false },
    ]);
  });
});
