/**
 * End-to-end scriptlet tests through the Engine with the real Starlark host:
 * the two seed scriptlets (seeds/001: the spec's example and the forum's
 * most-free-memory example) unmodified, and the LXD/Incus acceptance steps of
 * reference/lxd-scriptlet.md section 7 (one test per step, Incus semantics
 * where the two differ). Every test runs twice: with scriptlets on the
 * caller's thread and in the worker pool berthd uses, which must answer
 * with the same decisions, texts and log lines.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { ScriptletRunner } from "../scriptlet/port.js";
import { createScriptletWorkerPool } from "../scriptlet/workers/pool.js";
import { addGroups, addMember, testCluster as fixtureCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";
import type { Engine } from "./engine.js";

const SPEC_EXAMPLE = `def instance_placement(request, candidate_members):
        log_info("instance_placement started: ", request)

        if request.name == "foo":
                log_error("Invalid name supplied: ", request.name)
                return "Invalid name"

        set_target(candidate_members[0].server_name)
        return # No error
`;

const FORUM_MOST_FREE_MEMORY = `def instance_placement(reason, request, candidate_members):

        # targets the server with the highest available free memory
        # assumes there will be at least one candidate

        server_target = None
        memory_best = -1

        for candidate in candidate_members: 

            server = candidate["server_name"]
            state = get_cluster_member_state(server)
            memory_free = state["sysinfo"]["free_ram"] // (1024 * 1024) # in MB floored
            loads = state["sysinfo"]["load_averages"]

            log_info(server, " - free memory: ", memory_free, "MB, load: ", loads)

            if not server_target or memory_free > memory_best:
                server_target = server
                memory_best = memory_free

        log_info("targeting ", server_target, " for ", reason, " instance ", request["name"])

        set_target(server_target)
        return
`;

function sysinfo(freeRamMiB: number) {
  const MiB = 1024 * 1024;
  return {
    sysinfo: {
      uptime: 100,
      load_averages: [0.5, 0.25, 0.1],
      total_ram: 64 * 1024 * MiB,
      free_ram: freeRamMiB * MiB,
      shared_ram: 0,
      buffered_ram: 0,
      total_swap: 0,
      free_swap: 0,
      processes: 100,
      logical_cpus: 16,
    },
    storage_pools: { data: { space: { used: 0, total: 100 * 1024 ** 3 }, inodes: { used: 0, total: 1000 } } },
  };
}

/** One pool for the whole worker pass (a worker's start-up takes seconds on a loaded machine). */
let pool: ScriptletRunner | undefined;
afterAll(async () => {
  await pool?.close();
});

describe.each([
  ["on the caller's thread", false],
  ["in worker threads", true],
])("scriptlets %s", (_label, inWorkers) => {
  /** The fixture's engine, its scriptlets run in a worker pool when this pass says so. */
  const testCluster = () => {
    if (!inWorkers) return fixtureCluster();
    pool ??= createScriptletWorkerPool({ size: 1 });
    return fixtureCluster({ scriptletRunner: pool });
  };

  describe("seed scriptlets run unmodified", () => {
    it("the spec example targets the first candidate and rejects the name foo", async () => {
      const { engine, logger } = await testCluster();
      for (const name of ["node1", "node2", "node3"]) await addMember(engine, name);
      await engine.setConfig({ "instances.placement.scriptlet": SPEC_EXAMPLE });
      await engine.createInstance({ name: "a" });
      // Candidates are sorted by instance count: node2 (0) comes first now.
      const second = await engine.createInstance({ name: "b" });
      expect(second.instance.location).toBe("node2");
      expect(second.decidedBy).toBe("scriptlet");
      const rejected = await failure(engine.createInstance({ name: "foo" }));
      expect(rejected.kind).toBe("scriptlet");
      expect(rejected.message).toBe(
        'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
      );
      expect(
        logger.lines.some(
          (line) => line.message === "Instance placement scriptlet: Invalid name supplied: foo",
        ),
      ).toBe(true);
      const metrics = engine.metrics();
      expect(metrics.placements).toEqual({ create: 2 });
      expect(metrics.failures).toEqual({ create: { scriptlet: 1 } });
      expect(metrics.durations.create?.count).toBe(3);
      expect(metrics.scriptletRuns).toEqual({ target: 2, rejected: 1 });
      expect(metrics.scriptletSteps.count).toBe(3);
      expect(metrics.scriptletSteps.sum).toBeGreaterThan(0);
    });

    it("the forum example (pre-release reason parameter) picks the member with the most free memory", async () => {
      const { engine } = await testCluster();
      for (const name of ["node1", "node2", "node3"]) await addMember(engine, name);
      await engine.heartbeat("node1", sysinfo(2048));
      await engine.heartbeat("node2", sysinfo(8192));
      await engine.heartbeat("node3", sysinfo(4096));
      await engine.setConfig({ "instances.placement.scriptlet": FORUM_MOST_FREE_MEMORY });
      const placed = await engine.createInstance({ name: "web" });
      expect(placed.instance.location).toBe("node2");
      expect(placed.logs.map((line) => line.message)).toEqual([
        "node1 - free memory: 2048MB, load: [0.5, 0.25, 0.1]",
        "node2 - free memory: 8192MB, load: [0.5, 0.25, 0.1]",
        "node3 - free memory: 4096MB, load: [0.5, 0.25, 0.1]",
        "targeting node2 for new instance web",
      ]);
      const dry = await engine.dryRun({ name: "next" });
      expect(dry.decision).toEqual({ outcome: "placed", member: "node2", decidedBy: "scriptlet" });
      expect(dry.scriptletRan).toBe(true);
      expect(dry.logs.length).toBe(4);
      expect(dry.cost.steps).toBeGreaterThan(0);
    });
  });

  describe("the cluster view the builtins read", () => {
    it("serves get_instances_count (with pending), get_instances, get_cluster_members and get_project", async () => {
      const { engine } = await testCluster();
      await addGroups(engine, "gpu");
      await addMember(engine, "node1", { groups: ["gpu"] });
      await addMember(engine, "node2");
      await engine.catalog.createProject({
        name: "team",
        description: "Team A",
        config: { "limits.instances": "10" },
      });
      await engine.createInstance({ name: "a" }, { target: "node1" });
      await engine.createInstance({ name: "b", profiles: [] }, { project: "team", target: "node2" });
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    log_info("count all=", get_instances_count(), " node1=", get_instances_count(location="node1"),
             " team=", get_instances_count("team"), " pending=", get_instances_count(pending=True))
    log_info("instances on node2: ", [i.name for i in get_instances(location="node2")])
    log_info("gpu members: ", [m.server_name for m in get_cluster_members("gpu")])
    log_info("all members: ", [m.server_name for m in get_cluster_members()])
    project = get_project("team")
    log_info("project: ", project.name, " ", project.description, " ", project.config["limits.instances"], " ", project.used_by)
    return
`,
      });
      const outcomes = await engine.bulkCreate([{ name: "c" }, { name: "d" }]);
      const logs = (await engine.dryRun({ name: "e" })).logs.map((line) => line.message);
      expect(logs).toEqual([
        "count all=4 node1=2 team=1 pending=4",
        'instances on node2: ["b", "d"]',
        'gpu members: ["node1"]',
        'all members: ["node1", "node2"]',
        'project: team Team A 10 ["/1.0/instances/b?project=team"]',
      ]);
      expect(outcomes.instances.map((i) => i.location)).toEqual(["node1", "node2"]);
    });

    it("preloads instances for a scriptlet that only reaches get_instances through an alias", async () => {
      const { engine } = await testCluster();
      await addMember(engine, "node1");
      await addMember(engine, "node2");
      await engine.createInstance({ name: "a" }, { target: "node2" });
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    lister = get_instances
    log_info("on node2: ", [i.name for i in lister(location="node2")])
`,
      });
      const dry = await engine.dryRun({ name: "b" });
      expect(dry.logs.map((line) => line.message)).toEqual(['on node2: ["a"]']);
    });

    it("counts in-flight placements of a bulk create as pending", async () => {
      const { engine, logger } = await testCluster();
      await addMember(engine, "node1");
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    log_info(request.name, ": stored=", get_instances_count(), " with pending=", get_instances_count(pending=True))
    return
`,
      });
      await engine.bulkCreate([{ name: "x" }, { name: "y" }, { name: "z" }]);
      await engine.createInstance({ name: "w" });
      expect(logger.lines.map((line) => line.message)).toEqual([
        "Instance placement scriptlet: x: stored=0 with pending=0",
        "Instance placement scriptlet: y: stored=0 with pending=1",
        "Instance placement scriptlet: z: stored=0 with pending=2",
        "Instance placement scriptlet: w: stored=3 with pending=3",
      ]);
    });
  });

  /** reference/lxd-scriptlet.md 7.1: clustering_instance_placement_scriptlet.sh */
  describe("LXD/Incus acceptance: clustering_instance_placement_scriptlet", () => {
    let engine: Engine;

    beforeEach(async () => {
      engine = (await testCluster()).engine;
      for (const name of ["node1", "node2", "node3"]) await addMember(engine, name, { diskGb: 100 });
      await engine.catalog.updateProfile({
        project: "default",
        name: "default",
        description: "",
        config: {},
        devices: { root: { type: "disk", path: "/", pool: "data" }, eth0: { type: "nic", network: "br0" } },
      });
    });

    it("step 1: an invalid scriptlet is rejected", async () => {
      const error = await failure(engine.setConfig({ "instances.placement.scriptlet": "foo" }));
      expect(error.kind).toBe("invalid");
      expect(error.message).toContain("instance_placement:1:1: undefined: foo");
      expect((await engine.getConfig()).values["instances.placement.scriptlet"]).toBeUndefined();
    });

    it("step 2: static target with a checked environment puts c1, c2, c3 on node2", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    instance_resources = get_instance_resources()
    log_info("instance placement started: ", request, ", ", instance_resources)
    if request.reason != "new":
        return "Expecting reason new"
    if request.project != "default":
        return "Expecting project default"
    if request.config["limits.memory"] != "512MiB":
        return "Expecting config limits.memory of 512MiB"
    if instance_resources.cpu_cores != 1:
        return "Expecting cpu_cores of 1"
    if instance_resources.memory_size != 536870912:
        return "Expecting memory_size of 536870912"
    if instance_resources.root_disk_size != 209715200:
        return "Expecting root_disk_size of 209715200"
    for member in candidate_members:
        get_cluster_member_resources(member.server_name)
        get_cluster_member_state(member.server_name)
    names = sorted([m.server_name for m in candidate_members])
    set_target(names[1])
    return
`,
      });
      const c1 = await engine.createInstance({
        name: "c1",
        config: { "limits.memory": "512MiB", "limits.cpu": "1" },
        devices: { root: { type: "disk", path: "/", pool: "data", size: "200MiB" } },
      });
      await engine.catalog.createProfile({
        project: "default",
        name: "foo",
        description: "",
        config: { "limits.cpu": "1", "limits.memory": "512MiB" },
        devices: {
          root: { type: "disk", path: "/", pool: "data", size: "200MiB" },
          eth0: { type: "nic", network: "br0" },
        },
      });
      const c2 = await engine.createInstance({ name: "c2", profiles: ["foo"] });
      const c3 = await engine.createInstance({ name: "c3", profiles: ["foo"] });
      expect([c1, c2, c3].map((outcome) => outcome.instance.location)).toEqual(["node2", "node2", "node2"]);
    });

    it("step 3: fail() rejects the placement", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    log_error("instance not allowed")
    fail("Instance not allowed")
`,
      });
      const error = await failure(engine.createInstance({ name: "c1" }));
      expect(error.kind).toBe("scriptlet");
      expect(error.message).toBe(
        "Failed instance placement scriptlet: Failed to run: fail: Instance not allowed",
      );
      expect(await engine.listInstances()).toEqual([]);
    });

    it("step 4: a runtime error rejects the placement", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    log_info("Accessing invalid field ", candidate_members[4])
    return
`,
      });
      const error = await failure(engine.createInstance({ name: "c1" }));
      expect(error.kind).toBe("scriptlet");
      expect(error.message).toMatch(
        /^Failed instance placement scriptlet: Failed to run: .*index 4 out of range/,
      );
    });

    it("step 5 (Incus): an invalid set_target fails; without a scriptlet --target node1 works", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    res = set_target("foo")
    log_info("set_target result: ", res)
    return
`,
      });
      const error = await failure(
        engine.createInstance({ name: "c1", config: { "cluster.evacuate": "migrate" } }),
      );
      expect(error.message).toBe(
        "Failed instance placement scriptlet: Failed to run: Invalid member name: foo",
      );
      await engine.setConfig({ "instances.placement.scriptlet": "" });
      const c1 = await engine.createInstance({ name: "c1" }, { target: "node1" });
      expect(c1.instance.location).toBe("node1");
    });

    it("step 6: evacuation runs the scriptlet with reason evacuation and c1 lands on node3", async () => {
      await engine.createInstance({ name: "c1" }, { target: "node1" });
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    if request.reason != "evacuation":
        return "Expecting reason evacuation"
    log_info("Placing instance ", request.name, " for ", request.reason, " with candidates ", [m.server_name for m in candidate_members])
    names = sorted([m.server_name for m in candidate_members])
    set_target(names[1])
    return
`,
      });
      await engine.evacuateMember("node1");
      expect(engine.getMember("node1").status).toBe("Evacuated");
      expect((await engine.getInstance("default", "c1")).location).toBe("node3");
    });
  });

  /** reference/lxd-scriptlet.md 7.2: clustering_move.sh (scriptlet part) */
  describe("LXD/Incus acceptance: clustering_move", () => {
    let engine: Engine;

    beforeEach(async () => {
      engine = (await testCluster()).engine;
      await addGroups(engine, "foobar1", "foobar2", "foobar3");
      await addMember(engine, "node1", { groups: ["default", "foobar1"] });
      await addMember(engine, "node2", { groups: ["default", "foobar2"] });
      await addMember(engine, "node3", { groups: ["default", "foobar3"] });
      await engine.createInstance({ name: "c1" }, { target: "node1" });
      await engine.createInstance({ name: "c2" }, { target: "node2" });
      await engine.createInstance({ name: "c3" }, { target: "node3" });
    });

    const relocationScriptlet = `
def instance_placement(request, candidate_members):
    if request.reason != "relocation":
        return "Expecting reason relocation"
    names = sorted([m.server_name for m in candidate_members])
    set_target(names[0])
    return
`;
    const location = async (name: string) => (await engine.getInstance("default", name)).location;

    it("step 1: moves to @foobar3 run the scriptlet with reason relocation", async () => {
      await engine.setConfig({ "instances.placement.scriptlet": relocationScriptlet });
      await engine.moveInstance("default", "c1", "@foobar3");
      expect(await location("c1")).toBe("node3");
      await engine.moveInstance("default", "c2", "@foobar3");
      expect(await location("c2")).toBe("node3");
    });

    it("step 2: a member target skips the scriptlet", async () => {
      await engine.setConfig({ "instances.placement.scriptlet": relocationScriptlet });
      await engine.moveInstance("default", "c2", "@foobar3");
      await engine.moveInstance("default", "c2", "node2");
      expect(await location("c2")).toBe("node2");
    });

    it("step 3 (Incus): an invalid set_target makes the move fail", async () => {
      await engine.moveInstance("default", "c1", "node3");
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    set_target("foo")
    return
`,
      });
      const error = await failure(engine.moveInstance("default", "c1", "@foobar1"));
      expect(error.message).toBe(
        "Failed instance placement scriptlet: Failed to run: Invalid member name: foo",
      );
      expect(await location("c1")).toBe("node3");
    });

    it("step 4: indexing candidate_members[42] makes the move fail", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    log_info(candidate_members[42])
    return
`,
      });
      const error = await failure(engine.moveInstance("default", "c1", "@foobar2"));
      expect(error.kind).toBe("scriptlet");
      expect(await location("c1")).toBe("node1");
    });

    it("step 5: fail() makes the move fail", async () => {
      await engine.setConfig({
        "instances.placement.scriptlet": `
def instance_placement(request, candidate_members):
    fail("Instance not allowed")
`,
      });
      const error = await failure(engine.moveInstance("default", "c1", "@foobar2"));
      expect(error.message).toBe(
        "Failed instance placement scriptlet: Failed to run: fail: Instance not allowed",
      );
      expect(await location("c1")).toBe("node1");
    });

    it("step 6: without a scriptlet, project restricted.cluster.groups keeps moves out of other groups", async () => {
      await engine.setConfig({ "instances.placement.scriptlet": "" });
      const project = await engine.catalog.getProject("default");
      await engine.catalog.updateProject({
        ...project,
        config: { ...project.config, "restricted.cluster.groups": "foobar1,foobar2" },
      });
      const error = await failure(engine.moveInstance("default", "c1", "@foobar3"));
      expect(error.message).toContain("outside the groups project");
      await engine.moveInstance("default", "c1", "@foobar2");
      expect(await location("c1")).toBe("node2");
    });

    it("scheduler.instance group still allows @group; manual forbids @group but allows the member", async () => {
      await engine.updateMember("node2", { config: { "scheduler.instance": "group" } });
      await engine.updateMember("node3", { config: { "scheduler.instance": "manual" } });
      await engine.moveInstance("default", "c1", "@foobar2");
      expect(await location("c1")).toBe("node2");
      const manual = await failure(engine.moveInstance("default", "c1", "@foobar3"));
      expect(manual.message).toContain("scheduler.instance=manual");
      await engine.moveInstance("default", "c1", "node3");
      expect(await location("c1")).toBe("node3");
    });
  });
});
