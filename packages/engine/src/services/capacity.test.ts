import type { InstancesPost } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { memberProviderUuid } from "../rules/ledger/shared-ledger.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import type { Engine } from "./engine.js";

interface Planned {
  project?: string;
  target?: string;
}

/**
 * The exactness promise: the answer's count of creates of `body` succeed,
 * each on a member the answer gave room to, and the next one is refused.
 */
async function expectExact(engine: Engine, body: InstancesPost, options: Planned = {}) {
  const answer = await engine.capacity.answer(body, options);
  const landed = new Map<string, number>();
  for (let index = 0; index < answer.instances; index++) {
    const { instance } = await engine.instances.create({ ...body, name: `c${index}` }, options);
    landed.set(instance.location, (landed.get(instance.location) ?? 0) + 1);
  }
  const next = await engine.instances.create({ ...body, name: "one-too-many" }, options).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(next).toBeInstanceOf(EngineError);
  const perMember = Object.fromEntries(
    answer.members.filter((one) => one.instances > 0).map((one) => [one.member, one.instances]),
  );
  expect(perMember).toEqual(Object.fromEntries(landed));
  return answer;
}

describe("capacity: how many more of this fit", () => {
  it("counts mixed inventories and allocation ratios, with reservations counted as used", async () => {
    const { engine } = await testCluster();
    await engine.members.create({
      name: "n1",
      inventories: { VCPU: { total: 8, allocation_ratio: 1.5 }, MEMORY_MB: { total: 16384, reserved: 1024 } },
    });
    await engine.members.create({
      name: "n2",
      inventories: { VCPU: { total: 4, allocation_ratio: 4 }, MEMORY_MB: { total: 8192 } },
    });
    await addMember(engine, "n3", { vcpu: 2, memoryMb: 65536 });
    await engine.instances.create({ forthcoming: true, config: { "limits.cpu": "2" } }, { target: "n2" });
    const body = { config: { "limits.cpu": "2", "limits.memory": "2GiB" } };
    const answer = await expectExact(engine, body);
    // n1: VCPU 12 / 2 = 6, memory 15360 / 2048 = 7; n2: VCPU 16 - 2 = 14 / 2 = 7, memory 4; n3: VCPU 1.
    expect(answer.members).toEqual([
      { member: "n1", instances: 6, limitedBy: "capacity:VCPU" },
      { member: "n2", instances: 4, limitedBy: "capacity:MEMORY_MB" },
      { member: "n3", instances: 1, limitedBy: "capacity:VCPU" },
    ]);
    expect(answer.instances).toBe(11);
    expect(answer.countedBy).toBe("closed-form");
  });

  it("stops at a project's limits.instances, the default order choosing the members", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({ name: "p", description: "", config: { "limits.instances": "5" } });
    await addMember(engine, "n1", { vcpu: 4 });
    await addMember(engine, "n2", { vcpu: 16 });
    await engine.instances.create({ name: "old", config: { "limits.cpu": "1" } }, { project: "p" });
    const answer = await expectExact(engine, { config: { "limits.cpu": "2" } }, { project: "p" });
    expect(answer.instances).toBe(4);
    expect(answer.limitedBy).toBe("limits.instances");
    expect(answer.countedBy).toBe("simulation");
    expect(answer.project.limits).toEqual([
      { key: "limits.instances", max: 5, used: 1, perInstance: 1, instances: 4, aggregate: false },
    ]);
  });

  it("stops at a project's limits.cpu", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({
      name: "p",
      description: "",
      config: { "limits.cpu": "7", "limits.memory": "100GiB" },
    });
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    const answer = await expectExact(
      engine,
      { config: { "limits.cpu": "2", "limits.memory": "1GiB" } },
      { project: "p" },
    );
    expect(answer.instances).toBe(3);
    expect(answer.limitedBy).toBe("limits.cpu");
  });

  it("refuses like a create when the project limits CPU and the body does not declare it", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({ name: "p", description: "", config: { "limits.cpu": "7" } });
    await addMember(engine, "n1");
    await expect(engine.capacity.answer({}, { project: "p" })).rejects.toMatchObject({ kind: "invalid" });
  });

  it("gives a strict spread group one instance per member not hosting it yet", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "pg",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    for (const name of ["n1", "n2", "n3", "n4"]) await addMember(engine, name);
    await addMember(engine, "tiny", { vcpu: 1 });
    const body = { config: { "placement.group": "pg", "limits.cpu": "2" } };
    await engine.instances.create({ ...body, name: "first" }, { target: "n2" });
    const answer = await expectExact(engine, body);
    expect(answer.instances).toBe(3);
    expect(answer.members.find((one) => one.member === "n2")).toEqual({
      member: "n2",
      instances: 0,
      limitedBy: "spread:pg",
    });
    expect(answer.members.find((one) => one.member === "tiny")?.limitedBy).toBe("capacity:VCPU");
  });

  it("counts a flavor with a custom class only where that class is, and ranks flavors", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createResourceClass("CUSTOM_GPU");
    await addMember(engine, "gpu1", { extra: { CUSTOM_GPU: { total: 3 } } });
    await addMember(engine, "gpu2", { extra: { CUSTOM_GPU: { total: 4, reserved: 1 } } });
    await addMember(engine, "plain");
    await engine.catalog.createFlavor({
      name: "g1",
      vcpus: 2,
      memory_mb: 2048,
      extra_specs: { "resources:CUSTOM_GPU": "1" },
    });
    await engine.catalog.createFlavor({
      name: "g2",
      vcpus: 4,
      memory_mb: 4096,
      extra_specs: { "resources:CUSTOM_GPU": "2" },
    });
    await engine.catalog.createFlavor({ name: "huge", vcpus: 64, memory_mb: 1024 });
    const answer = await engine.capacity.answer({ flavor: "g1" }, { flavors: ["g1", "huge", "g2"] });
    expect(answer.flavors).toEqual([
      { flavor: "g1", instances: 6, limitedBy: "capacity:CUSTOM_GPU" },
      { flavor: "huge", instances: 0, limitedBy: "capacity:VCPU" },
      { flavor: "g2", instances: 2, limitedBy: "capacity:CUSTOM_GPU" },
    ]);
    expect(answer.largestFlavor).toBe("g2");
    expect(answer.members.find((one) => one.member === "plain")?.limitedBy).toBe("lack:CUSTOM_GPU");
    expect(answer.largest).toEqual({
      multiple: 3,
      member: "gpu1",
      resources: { VCPU: 6, MEMORY_MB: 6144, CUSTOM_GPU: 3 },
    });
    await expectExact(engine, { flavor: "g1" });
  });

  it("counts a class held by child providers (NUMA, GPU trees) as the sum of what each child takes", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createResourceClass("CUSTOM_FPGA");
    await engine.catalog.createFlavor({
      name: "fpga2",
      vcpus: 1,
      memory_mb: 1024,
      extra_specs: { "resources:CUSTOM_FPGA": "2" },
    });
    await addMember(engine, "plain");
    await addMember(engine, "accel");
    for (const [name, total] of [
      ["fpga0", 5],
      ["fpga1", 3],
    ] as const) {
      const child = await engine.providers.create({ name, parentUuid: memberProviderUuid("accel") });
      await engine.providers.setInventories(child.uuid, child.generation, { CUSTOM_FPGA: { total } });
    }
    // fpga0 takes 2 (5 / 2), fpga1 takes 1 (3 / 2): one unit never splits over two children.
    const answer = await expectExact(engine, { flavor: "fpga2" });
    expect(answer.instances).toBe(3);
    expect(answer.largest.multiple).toBe(2);
  });

  it("keeps a strict compact group on the member it already is on", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "pack",
      description: "",
      policy: "compact",
      rigor: "strict",
    });
    await addMember(engine, "n1", { vcpu: 16 });
    await addMember(engine, "n2", { vcpu: 6 });
    const body = { config: { "placement.group": "pack", "limits.cpu": "2" } };
    await engine.instances.create({ ...body, name: "first" }, { target: "n2" });
    const answer = await expectExact(engine, body);
    expect(answer.instances).toBe(2);
    expect(answer.members.find((one) => one.member === "n1")?.limitedBy).toBe("compact:pack");
  });

  it("lets a project limit stop a spread group early, in the stack's order", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({ name: "p", description: "", config: { "limits.instances": "2" } });
    await engine.catalog.createPlacementGroup({
      project: "p",
      name: "pg",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    for (const name of ["n1", "n2", "n3"]) await addMember(engine, name);
    await engine.instances.create({ name: "busy", config: { "limits.cpu": "1" } }, { target: "n1" });
    const answer = await expectExact(
      engine,
      { config: { "placement.group": "pg", "limits.cpu": "1" } },
      { project: "p" },
    );
    expect(answer.instances).toBe(2);
    expect(answer.limitedBy).toBe("limits.instances");
  });

  it("sizes a memory share on each member's own memory", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "small", { memoryMb: 8192 });
    await addMember(engine, "big", { memoryMb: 65536 });
    // A quarter of each member's memory: four fit on each, whatever its size.
    const answer = await expectExact(engine, { config: { "limits.memory": "25%", "limits.cpu": "1" } });
    expect(answer.members.map((one) => one.instances)).toEqual([4, 4]);
  });

  it("counts only the named member for a member target, and the group for @group", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createGroup({ name: "g", description: "" });
    await addMember(engine, "n1", { vcpu: 4 });
    await addMember(engine, "n2", { vcpu: 6, groups: ["g"] });
    const body = { config: { "limits.cpu": "2" } };
    expect((await engine.capacity.answer(body, { target: "n1" })).instances).toBe(2);
    const answer = await expectExact(engine, body, { target: "@g" });
    expect(answer.members.find((one) => one.member === "n1")?.limitedBy).toBe("group:g");
    expect(answer.instances).toBe(3);
  });

  it("says when a configured scriptlet was not run", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.config.set({
      "instances.placement.scriptlet": "def instance_placement(request, candidate_members):\n    pass\n",
    });
    const body = { config: { "limits.cpu": "1" } };
    expect((await engine.capacity.answer(body)).scriptletIgnored).toBe(true);
    expect((await engine.capacity.answer(body, { target: "n1" })).scriptletIgnored).toBe(false);
  });

  it("refuses to count a body that asks for no resource when nothing else bounds it", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await expect(engine.capacity.answer({})).rejects.toMatchObject({ kind: "invalid" });
  });

  it("leaves the model as it found it", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createProject({ name: "p", description: "", config: { "limits.instances": "2" } });
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await engine.capacity.answer({}, { project: "p" });
    for (const member of engine.members.list()) {
      expect(member.usage).toEqual({ used: {}, forthcoming: {}, pending: {} });
      expect(member.instances).toBe(0);
    }
    expect((await engine.instances.dryRun({ name: "x" }, { project: "p" })).candidates).toEqual(["n1", "n2"]);
  });
});
