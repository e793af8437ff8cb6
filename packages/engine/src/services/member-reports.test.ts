import { describe, expect, it } from "vitest";
import { testCluster } from "../testing/cluster.fixture.js";
import { lxdMemberState } from "../testing/member-reports.fixture.js";

const GiB = 1024 ** 3;

function sources(engine: Awaited<ReturnType<typeof testCluster>>["engine"], name: string) {
  return Object.fromEntries(
    Object.entries(engine.members.inventories(name).inventories).map(([c, v]) => [c, [v.total, v.source]]),
  );
}

describe("inventories follow what members report", () => {
  it("a member that only sends its state is sized from it, and kept current", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1" });
    expect(engine.members.inventories("n1").inventories).toEqual({});
    await engine.members.heartbeat("n1", lxdMemberState(16, 8, 100));
    expect(sources(engine, "n1")).toEqual({
      VCPU: [8, "derived"],
      MEMORY_MB: [16384, "derived"],
      DISK_GB: [100, "derived"],
    });
    await engine.members.heartbeat("n1", lxdMemberState(32, 8, 100));
    expect(sources(engine, "n1").MEMORY_MB).toEqual([32768, "derived"]);
  });

  it("the resources document wins for CPU and memory; the pool still comes from the state", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1", state: lxdMemberState(16, 8, 100) });
    await engine.members.setResources("n1", { cpu: { total: 64 }, memory: { total: 256 * GiB } });
    expect(sources(engine, "n1")).toEqual({
      VCPU: [64, "derived"],
      MEMORY_MB: [262144, "derived"],
      DISK_GB: [100, "derived"],
    });
  });

  it("an explicit inventory wins over the derived one and says so; removing it falls back", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1", state: lxdMemberState(16, 8) });
    const { generation } = engine.members.inventories("n1");
    await engine.members.setInventories("n1", { VCPU: { total: 2 } }, generation);
    expect(sources(engine, "n1")).toEqual({ VCPU: [2, "explicit"], MEMORY_MB: [16384, "derived"] });
    await engine.members.heartbeat("n1", lxdMemberState(16, 12));
    expect(sources(engine, "n1").VCPU).toEqual([2, "explicit"]);
    await engine.members.deleteInventory("n1", "VCPU", engine.members.inventories("n1").generation);
    expect(sources(engine, "n1").VCPU).toEqual([12, "derived"]);
  });
});

describe('member config: "" unsets a key', () => {
  it("in a PUT (lxc cluster unset), a PATCH and a create", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1", config: { "scheduler.instance": "manual", "user.a": "" } });
    expect(engine.members.get("n1").record.config).toEqual({ "scheduler.instance": "manual" });
    await engine.members.update("n1", { config: { "scheduler.instance": "", "user.b": "1" } });
    expect(engine.members.get("n1").record.config).toEqual({ "user.b": "1" });
    await engine.members.patch("n1", { config: { "user.b": "" } });
    expect(engine.members.get("n1").record.config).toEqual({});
  });
});

describe("a report that says nothing of a class", () => {
  it("keeps the class's last derived total (an older LXD's heartbeat has no logical_cpus)", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1", state: lxdMemberState(16, 8, 100) });
    // An older LXD: no logical_cpus; and no pool this time.
    await engine.members.heartbeat("n1", lxdMemberState(32));
    expect(sources(engine, "n1")).toEqual({
      VCPU: [8, "derived"],
      MEMORY_MB: [32768, "derived"],
      DISK_GB: [100, "derived"],
    });
    // An unrelated explicit edit keeps them too.
    await engine.members.setInventories(
      "n1",
      { PCPU: { total: 1 } },
      engine.members.inventories("n1").generation,
      true,
    );
    expect(sources(engine, "n1")).toEqual({
      VCPU: [8, "derived"],
      MEMORY_MB: [32768, "derived"],
      DISK_GB: [100, "derived"],
      PCPU: [1, "explicit"],
    });
  });
});

describe("DISK_GB follows the pools the profiles' root disks use", () => {
  const pools = (sizes: Record<string, number>) => ({
    ...lxdMemberState(16, 8),
    storage_pools: Object.fromEntries(
      Object.entries(sizes).map(([pool, gib]) => [pool, { space: { used: GiB, total: gib * GiB } }]),
    ),
  });
  const rootOn = (pool: string) => ({ root: { type: "disk", path: "/", pool } });

  it("is the default profile's root pool, kept current as profiles change, summed over several", async () => {
    const { engine } = await testCluster();
    await engine.members.create({ name: "n1", state: pools({ default: 100, ssd: 40 }) });
    // No profile names a pool yet: LXD's `default` pool.
    expect(sources(engine, "n1").DISK_GB).toEqual([100, "derived"]);
    await engine.catalog.patchProfile("default", "default", { devices: rootOn("ssd") });
    expect(sources(engine, "n1").DISK_GB).toEqual([40, "derived"]);
    // Another profile's root disk on another pool: instances may land on either.
    await engine.catalog.createProfile({
      project: "default",
      name: "bulk",
      description: "",
      config: {},
      devices: rootOn("default"),
    });
    expect(sources(engine, "n1").DISK_GB).toEqual([140, "derived"]);
    await engine.catalog.deleteProfile("default", "bulk");
    expect(sources(engine, "n1").DISK_GB).toEqual([40, "derived"]);
    // Reports keep following the named pool.
    await engine.members.heartbeat("n1", pools({ default: 100, ssd: 80 }));
    expect(sources(engine, "n1").DISK_GB).toEqual([80, "derived"]);
  });

  it("a member without the pool gets no DISK_GB, and a disk request there names what to report", async () => {
    const { engine } = await testCluster();
    await engine.catalog.patchProfile("default", "default", { devices: rootOn("ssd") });
    await engine.members.create({ name: "n1", state: pools({ default: 100 }) });
    expect(sources(engine, "n1").DISK_GB).toBeUndefined();
    const refusal = await engine.instances
      .create({ name: "w1", devices: { root: { type: "disk", path: "/", pool: "ssd", size: "10GiB" } } })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(refusal?.message).toContain("storage_pools.POOL.space.total");
  });

  it("an explicit DISK_GB is judged against the same pools", async () => {
    const { engine } = await testCluster();
    await engine.catalog.patchProfile("default", "default", { devices: rootOn("ssd") });
    await engine.members.create({
      name: "n1",
      state: pools({ default: 100, ssd: 40 }),
      inventories: { DISK_GB: { total: 60 } },
    });
    const above = async () =>
      (await engine.warnings.list()).filter((w) => w.type === "Explicit inventory above reported capacity");
    expect(await above()).toMatchObject([{ last_message: expect.stringContaining("above the 40") }]);
    await engine.catalog.patchProfile("default", "default", { devices: rootOn("default") });
    expect((await above()).map((w) => w.status)).toEqual(["resolved"]);
  });
});
