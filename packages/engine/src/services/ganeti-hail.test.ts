/**
 * Ganeti hail acceptance cases (reference/ganeti-and-perf.md section 5.1)
 * that fit Berth's model, expressed as bulk creates, moves and evacuations.
 * Berth places an instance on one member (no DRBD primary/secondary pairs,
 * no instance policies, no global N+1), so only the single-member parts of
 * the cases carry over; what a case checks and how it maps is said on each.
 */
import { describe, expect, it } from "vitest";
import { addGroups, addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";
import type { Engine } from "./engine.js";

const withMemory = (name: string, mib: number, extra: Record<string, string> = {}) => ({
  name,
  config: { "limits.memory": `${mib}MiB`, ...extra },
});

/** Case M's text data: 4 nodes of 4096 MiB; A hosts 1x1000, B 3x1000, C 1x3000, D 3x1000. */
async function sharedN1Cluster(): Promise<Engine> {
  const { engine } = await testCluster();
  for (const name of ["nodeA", "nodeB", "nodeC", "nodeD"]) await addMember(engine, name, { memoryMb: 4096 });
  const existing: [string, number[]][] = [
    ["nodeA", [1000]],
    ["nodeB", [1000, 1000, 1000]],
    ["nodeC", [3000]],
    ["nodeD", [1000, 1000, 1000]],
  ];
  for (const [node, sizes] of existing) {
    for (const [i, size] of sizes.entries())
      await engine.createInstance(withMemory(`${node}-i${i}`, size), { target: node });
  }
  return engine;
}

/** Case N's partly-used.data: 5 nodes of 16 GiB / 400 GB; node-01..03 each host one 1 GiB / 50 GiB instance. */
async function partlyUsedCluster(): Promise<Engine> {
  const { engine } = await testCluster();
  await addGroups(engine, "first-three");
  for (const name of ["node-01", "node-02", "node-03", "node-04", "node-05"]) {
    const groups = ["node-01", "node-02", "node-03"].includes(name) ? ["first-three"] : [];
    await addMember(engine, name, { memoryMb: 16384, diskGb: 400, groups });
  }
  await engine.catalog.updateProfile({
    project: "default",
    name: "default",
    description: "",
    config: {},
    devices: { root: { type: "disk", path: "/", pool: "default" } },
  });
  for (const [i, node] of ["node-01", "node-02", "node-03"].entries()) {
    await engine.createInstance(
      {
        name: `ring${i}`,
        config: { "limits.memory": "1GiB" },
        devices: { root: { type: "disk", path: "/", pool: "default", size: "50GiB" } },
      },
      { target: node },
    );
  }
  return engine;
}

const drbdRequest = (name: string) => ({
  name,
  config: { "limits.memory": "1024MiB", "limits.cpu": "1" },
  devices: { root: { type: "disk", path: "/", pool: "default", size: "1024MiB" } },
});

describe("Ganeti hail cases as bulk creates", () => {
  it("M (--no-capacity-checks): a 1000 MiB instance goes to nodeA, the best-balanced choice", async () => {
    const engine = await sharedN1Cluster();
    const outcome = await engine.bulkCreate([withMemory("new", 1000)]);
    expect(outcome.instances[0]!.location).toBe("nodeA");
  });

  it("N: on partly-used.data the instance lands on an empty node (node-04 or node-05)", async () => {
    const engine = await partlyUsedCluster();
    const outcome = await engine.bulkCreate([drbdRequest("instance1")]);
    expect(["node-04", "node-05"]).toContain(outcome.instances[0]!.location);
  });

  it("N (multi-allocate): two instances take both empty nodes", async () => {
    const engine = await partlyUsedCluster();
    const outcome = await engine.bulkCreate([drbdRequest("instance1"), drbdRequest("instance2")]);
    expect(outcome.instances.map((i) => i.location).sort()).toEqual(["node-04", "node-05"]);
  });

  it("N (--restrict-allocation-to node-01,02,03): restricted as @group, the result stays within them", async () => {
    const engine = await partlyUsedCluster();
    const outcome = await engine.bulkCreate([drbdRequest("instance1")], { target: "@first-three" });
    expect(["node-01", "node-02", "node-03"]).toContain(outcome.instances[0]!.location);
  });

  it("multi-allocate (2.5): one unplaceable instance fails the whole request and names it", async () => {
    const engine = await sharedN1Cluster();
    const error = await failure(
      engine.bulkCreate([
        withMemory("fits", 1000),
        withMemory("too-big", 5000),
        withMemory("also-fits", 500),
      ]),
    );
    expect(error.kind).toBe("insufficient_capacity");
    expect(error.message).toContain('Instance "too-big" (index 1) could not be placed');
    expect(error.message).toContain("4 members have too little MEMORY_MB");
    expect((await engine.listInstances()).length).toBe(8);
  });

  it("forthcoming-aware check (2.2, 4.3): a real allocation cannot eat a reservation", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "node1", { memoryMb: 4096 });
    await engine.bulkCreate([{ ...withMemory("", 3072), name: undefined, forthcoming: true }]);
    const error = await failure(engine.bulkCreate([withMemory("real", 2048)]));
    expect(error.message).toContain("1 member has too little MEMORY_MB");
  });

  it("J (exclusion tags): a strict spread group refuses nodes that already host the tag; permissive allows", async () => {
    const { engine } = await testCluster();
    for (const name of ["node1", "node2", "node3"]) await addMember(engine, name);
    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "service-foo",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    const tagged = (name: string) => ({ name, config: { "placement.group": "service-foo" } });
    await engine.bulkCreate([tagged("a"), tagged("b"), tagged("c")]);
    const error = await failure(engine.bulkCreate([tagged("new")]));
    expect(error.message).toContain('3 members already host instances of placement group "service-foo"');
    const group = await engine.catalog.getPlacementGroup("default", "service-foo");
    await engine.catalog.updatePlacementGroup({ ...group, rigor: "permissive" });
    const outcome = await engine.bulkCreate([tagged("new")]);
    expect(outcome.instances[0]!.location).toBe("node1");
  });
});

describe("Ganeti hail relocation cases", () => {
  /** The cluster of cases A/B/D: four nodes, ten instances on node3/node4 only. */
  async function drbdCluster(): Promise<Engine> {
    const { engine } = await testCluster();
    for (const name of ["node1", "node2", "node3", "node4"]) {
      await addMember(engine, name, { memoryMb: 32763, groups: ["default"] });
    }
    for (let i = 0; i < 10; i++) {
      await engine.createInstance(withMemory(`instance${i + 10}`, 256), {
        target: i % 2 === 0 ? "node3" : "node4",
      });
    }
    return engine;
  }

  it("B: relocating an instance off node4 picks node1 (hail relocates instance14's node4 half)", async () => {
    const engine = await drbdCluster();
    const moved = await engine.moveInstance("default", "instance15", "@default");
    expect(moved.from).toBe("node4");
    expect(moved.instance.location).toBe("node1");
  });

  it("D: node-evacuate moves every instance of the node, none fails", async () => {
    const engine = await drbdCluster();
    const outcome = await engine.evacuateMember("node3");
    expect(outcome.moved.length).toBe(5);
    expect(outcome.moved.every((move) => move.to === "node1" || move.to === "node2")).toBe(true);
  });

  it("E: change-group moves the instance into the target group", async () => {
    const engine = await drbdCluster();
    await addGroups(engine, "empty");
    await addMember(engine, "node10", { groups: ["empty"] });
    await addMember(engine, "node11", { groups: ["empty"] });
    const moved = await engine.moveInstance("default", "instance14", "@empty");
    expect(moved.instance.location).toBe("node10");
  });
});
