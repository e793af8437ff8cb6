import { describe, expect, it } from "vitest";
import { addGroups, addMember, heartbeatAll, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

describe("default policy", () => {
  it("picks the member with the fewest instances, ties in join order", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await addMember(engine, "n3");
    const placed: string[] = [];
    for (const name of ["a", "b", "c", "d"]) {
      placed.push((await engine.createInstance({ name })).instance.location);
    }
    expect(placed).toEqual(["n1", "n2", "n3", "n1"]);
  });

  it("counts reservations as instances", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await engine.createInstance({ forthcoming: true }, { target: "n1" });
    expect((await engine.createInstance({ name: "a" })).instance.location).toBe("n2");
  });

  it("lists candidates in load order in a dry run without claiming", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await engine.createInstance({ name: "a" });
    const dry = await engine.dryRun({ name: "b" });
    expect(dry.decision).toEqual({ outcome: "placed", member: "n2", decidedBy: "default" });
    expect(dry.candidates).toEqual(["n2", "n1"]);
    expect(dry.scriptletRan).toBe(false);
    expect((await engine.listInstances()).length).toBe(1);
  });
});

describe("candidate filters", () => {
  it("skips members without a heartbeat within cluster.offline_threshold", async () => {
    const { engine, clock } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    clock.advance(15_000);
    await engine.heartbeat("n2");
    clock.advance(10_000); // n1 silent for 25 s > 20 s default
    expect((await engine.createInstance({ name: "a" })).instance.location).toBe("n2");
    expect((await engine.createInstance({ name: "b" })).instance.location).toBe("n2");
    expect(engine.getMember("n1").status).toBe("Offline");
  });

  it("honours scheduler.instance manual and group", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "g");
    await addMember(engine, "manual", { config: { "scheduler.instance": "manual" } });
    await addMember(engine, "grouped", { config: { "scheduler.instance": "group" }, groups: ["g"] });
    await addMember(engine, "plain");
    expect((await engine.createInstance({ name: "a" })).instance.location).toBe("plain");
    expect((await engine.createInstance({ name: "b" })).instance.location).toBe("plain");
    // @g makes the group-only member eligible (it has fewer instances).
    expect((await engine.createInstance({ name: "c" }, { target: "@g" })).instance.location).toBe("grouped");
    // An explicit member target ignores scheduler rules, as in LXD.
    expect((await engine.createInstance({ name: "d" }, { target: "manual" })).instance.location).toBe(
      "manual",
    );
  });

  it("restricts to project restricted.cluster.groups even when restricted is false", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "blue");
    await addMember(engine, "n1");
    await addMember(engine, "n2", { groups: ["blue"] });
    await engine.catalog.createProject({
      name: "p",
      description: "",
      config: { "restricted.cluster.groups": "blue" },
    });
    const placed = await engine.createInstance({ name: "a", profiles: [] }, { project: "p" });
    expect(placed.instance.location).toBe("n2");
  });

  it("checks explicit targets as LXD does", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "blue");
    await addMember(engine, "n1");
    await engine.catalog.createProject({
      name: "p",
      description: "",
      config: {
        restricted: "true",
        "restricted.cluster.target": "allow",
        "restricted.cluster.groups": "blue",
      },
    });
    const missing = await failure(engine.createInstance({ name: "a" }, { target: "nope" }));
    expect(missing.kind).toBe("not_found");
    expect(missing.message).toBe('Cluster member "nope" not found');
    const outside = await failure(
      engine.createInstance({ name: "a", profiles: [] }, { project: "p", target: "n1" }),
    );
    expect(outside.kind).toBe("forbidden");
    expect(outside.message).toBe('Project isn\'t allowed to use this cluster member: "n1"');
    const badGroup = await failure(engine.createInstance({ name: "a" }, { target: "@nope" }));
    expect(badGroup.message).toBe('Cluster group "nope" doesn\'t exist');
  });

  it("matches architectures including 32-bit personalities", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "arm", { architecture: "aarch64" });
    await addMember(engine, "x86", { architecture: "x86_64" });
    await engine.catalog.createImage({
      fingerprint: "a".repeat(64),
      description: "",
      architecture: "i686",
      type: "container",
      aliases: ["old32"],
      properties: {},
    });
    expect((await engine.createInstance({ name: "a", architecture: "aarch64" })).instance.location).toBe(
      "arm",
    );
    expect((await engine.createInstance({ name: "b", architecture: "armv7l" })).instance.location).toBe(
      "arm",
    );
    const fromImage = await engine.createInstance({ name: "c", source: { type: "image", alias: "old32" } });
    expect(fromImage.instance.location).toBe("x86");
    expect(fromImage.instance.architecture).toBe("i686");
  });

  it("explains per class of failure why nothing fits", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createResourceClass("CUSTOM_FPGA");
    await engine.catalog.createFlavor({
      name: "fpga",
      vcpus: 1,
      memory_mb: 4096,
      extra_specs: { "resources:CUSTOM_FPGA": "1" },
    });
    for (const name of ["a", "b", "c"]) await addMember(engine, name);
    await addMember(engine, "small1", { memoryMb: 1024, extra: { CUSTOM_FPGA: { total: 1 } } });
    await addMember(engine, "small2", { memoryMb: 2048, extra: { CUSTOM_FPGA: { total: 1 } } });
    const error = await failure(engine.createInstance({ name: "x", flavor: "fpga" }));
    expect(error.kind).toBe("insufficient_capacity");
    expect(error.message).toBe(
      'No suitable cluster member could be found for instance "x" in project "default": 3 members lack CUSTOM_FPGA, 2 have too little MEMORY_MB',
    );
  });

  it("filters on required and forbidden traits", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createFlavor({
      name: "avx",
      vcpus: 1,
      memory_mb: 512,
      extra_specs: { "trait:HW_CPU_X86_AVX2": "required", "trait:CUSTOM_SLOW": "forbidden" },
    });
    await addMember(engine, "plain");
    await addMember(engine, "slow", { traits: ["HW_CPU_X86_AVX2", "CUSTOM_SLOW"] });
    await addMember(engine, "fast", { traits: ["HW_CPU_X86_AVX2"] });
    expect((await engine.createInstance({ name: "a", flavor: "avx" })).instance.location).toBe("fast");
  });

  it("enforces project limits", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.createProject({
      name: "p",
      description: "",
      config: { "limits.instances": "1", "limits.memory": "2GiB" },
    });
    await engine.createInstance(
      { name: "a", profiles: [], config: { "limits.memory": "1GiB" } },
      { project: "p" },
    );
    const error = await failure(engine.createInstance({ name: "b", profiles: [] }, { project: "p" }));
    expect(error.kind).toBe("insufficient_capacity");
    expect(error.message).toBe('Reached maximum number of instances in project "p"');
  });

  it("does not count members back online until they heartbeat", async () => {
    const { engine, clock } = await testCluster();
    await addMember(engine, "n1");
    clock.advance(60_000);
    const error = await failure(engine.createInstance({ name: "a" }));
    expect(error.kind).toBe("not_found");
    expect(error.message).toContain("1 member is offline");
    await heartbeatAll(engine);
    expect((await engine.createInstance({ name: "a" })).instance.location).toBe("n1");
  });
});

describe("expansion", () => {
  it("applies profiles in order, then the instance's own values, and sizes from instance types", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { vcpu: 2, memoryMb: 8192, diskGb: 100 });
    await engine.catalog.updateProfile({
      project: "default",
      name: "default",
      description: "",
      config: {},
      devices: { root: { type: "disk", path: "/", pool: "default", size: "20GiB" } },
    });
    await engine.catalog.createProfile({
      project: "default",
      name: "big",
      description: "",
      config: { "limits.cpu": "2", "limits.memory": "4GiB" },
      devices: {},
    });
    const placed = await engine.createInstance({
      name: "a",
      profiles: ["default", "big"],
      config: { "limits.memory": "2GiB" },
    });
    expect(engine.getMember("n1").usage.used).toEqual({ VCPU: 2, MEMORY_MB: 2048, DISK_GB: 20 });
    expect(placed.instance.config).toEqual({ "limits.memory": "2GiB" });
    await engine.deleteInstance("default", "a");
    await engine.createInstance({ name: "t", instance_type: "c1-m1" });
    expect(engine.getMember("n1").usage.used).toEqual({ VCPU: 1, MEMORY_MB: 1024, DISK_GB: 20 });
  });

  it("supports the ironic recipe: one gold node and nothing else", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createResourceClass("CUSTOM_BAREMETAL_GOLD");
    await engine.catalog.createFlavor({
      name: "gold",
      vcpus: 1,
      memory_mb: 1,
      disk_gb: 0,
      extra_specs: {
        "resources:CUSTOM_BAREMETAL_GOLD": "1",
        "resources:VCPU": "0",
        "resources:MEMORY_MB": "0",
        "resources:DISK_GB": "0",
      },
    });
    await engine.createMember({ name: "bm1", inventories: { CUSTOM_BAREMETAL_GOLD: { total: 1 } } });
    await engine.createMember({ name: "bm2", inventories: { CUSTOM_BAREMETAL_GOLD: { total: 1 } } });
    const first = await engine.createInstance({ name: "a", flavor: "gold" });
    const second = await engine.createInstance({ name: "b", flavor: "gold" });
    expect([first.instance.location, second.instance.location]).toEqual(["bm1", "bm2"]);
    const third = await failure(engine.createInstance({ name: "c", flavor: "gold" }));
    expect(third.message).toContain("2 members have too little CUSTOM_BAREMETAL_GOLD");
  });

  it("rejects invalid flavors with Nova's messages", async () => {
    const { engine } = await testCluster();
    const error = await failure(
      engine.catalog.createFlavor({
        name: "bad",
        vcpus: 1,
        memory_mb: 1,
        extra_specs: { "resources:VCPU": "x" },
      }),
    );
    expect(error.kind).toBe("invalid");
    expect(error.message).toContain("'x' is not a valid integer value.");
  });
});

describe("placement groups", () => {
  async function withGroup(policy: "spread" | "compact", rigor: "strict" | "permissive") {
    const cluster = await testCluster();
    for (const name of ["n1", "n2", "n3"]) await addMember(cluster.engine, name);
    await cluster.engine.catalog.createPlacementGroup({
      project: "default",
      name: "pg",
      description: "",
      policy,
      rigor,
    });
    return cluster;
  }
  const member = (name: string) => ({ name, config: { "placement.group": "pg" } });

  it("strict spread puts each member on its own member and fails when none is left", async () => {
    const { engine } = await withGroup("spread", "strict");
    await engine.createInstance({ name: "other" }); // n1 busier: spread still avoids only group members
    const places = [];
    for (const name of ["a", "b", "c"])
      places.push((await engine.createInstance(member(name))).instance.location);
    expect(new Set(places).size).toBe(3);
    const error = await failure(engine.createInstance(member("d")));
    expect(error.message).toContain(
      '3 members already host instances of placement group "pg" (strict spread)',
    );
  });

  it("permissive spread prefers empty members but falls back", async () => {
    const { engine } = await withGroup("spread", "permissive");
    const places = [];
    for (const name of ["a", "b", "c", "d"])
      places.push((await engine.createInstance(member(name))).instance.location);
    expect(places).toEqual(["n1", "n2", "n3", "n1"]);
  });

  it("compact keeps the group together; strict refuses elsewhere", async () => {
    const { engine } = await withGroup("compact", "strict");
    const places = [];
    for (const name of ["a", "b", "c"])
      places.push((await engine.createInstance(member(name))).instance.location);
    expect(places).toEqual(["n1", "n1", "n1"]);
    expect((await engine.createInstance({ name: "free" })).instance.location).toBe("n2");
  });
});
