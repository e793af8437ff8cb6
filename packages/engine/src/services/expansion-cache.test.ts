import { describe, expect, it } from "vitest";
import { MemoryStore } from "../memory-store/memory-store.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { Engine } from "./engine.js";

const defaultProfile = (
  config: Record<string, string>,
  devices: Record<string, Record<string, string>> = {},
) => ({
  project: "default",
  name: "default",
  description: "",
  config,
  devices,
});

const memoryOf = (allocations: { resourceClass: string; amount: number }[]) =>
  allocations.find((row) => row.resourceClass === "MEMORY_MB")?.amount;

describe("expanded create bodies kept across requests", () => {
  it("a profile changed between two identical creates sizes the second one", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.updateProfile(defaultProfile({ "limits.memory": "1GiB" }));
    const first = await engine.createInstance({ name: "a", config: { "limits.cpu": "1" } });
    await engine.catalog.updateProfile(defaultProfile({ "limits.memory": "2GiB" }));
    const second = await engine.createInstance({ name: "b", config: { "limits.cpu": "1" } });
    expect(memoryOf(first.instance.allocations)).toBe(1024);
    expect(memoryOf(second.instance.allocations)).toBe(2048);
    expect(second.expanded.config).toEqual({ "limits.memory": "2GiB", "limits.cpu": "1" });
  });

  it("sees a profile another engine on the same store changed", async () => {
    const store = new MemoryStore();
    const first = await testCluster({ store });
    await addMember(first.engine, "n1");
    const second = await Engine.open({ store, clock: first.clock });
    await second.createInstance({ name: "a" });
    await first.engine.catalog.updateProfile(defaultProfile({ "limits.memory": "3GiB" }));
    const placed = await second.createInstance({ name: "b" });
    expect(memoryOf(placed.instance.allocations)).toBe(3072);
  });

  it("gives each create its own name and its own expansion to keep", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.updateProfile(
      defaultProfile({ "user.x": "profile" }, { root: { type: "disk", path: "/", pool: "p" } }),
    );
    const body = { config: { "user.y": "own" } };
    const first = await engine.createInstance({ ...body, name: "a" });
    first.expanded.config["user.y"] = "changed by the caller";
    first.expanded.devices.root!.pool = "changed by the caller";
    const second = await engine.createInstance({ ...body, name: "b" });
    expect(second.instance.name).toBe("b");
    expect(second.expanded).toEqual({
      config: { "user.x": "profile", "user.y": "own" },
      devices: { root: { type: "disk", path: "/", pool: "p" } },
    });
    expect(second.expanded).toEqual(await engine.expandedInstance(second.instance));
  });
});
