/**
 * Placement groups over a topology key on the engine's paths beyond a
 * plain create (the HTTP suite covers create, bulk, reservations,
 * evacuation and restore): healing an offline member keeps the rule, and
 * a move to a named member's rack already used is not the ranker's to
 * allow (it is refused for a group target, allowed within the rack).
 */
import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../../testing/cluster.fixture.js";

async function fourMembersInTwoRacks() {
  const cluster = await testCluster();
  const { engine } = cluster;
  await engine.config.set({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "60" });
  for (const name of ["a1", "a2", "b1", "b2"])
    await addMember(engine, name, { config: { "topology.rack": name[0]!.toUpperCase() } });
  await engine.catalog.createPlacementGroup({
    project: "default",
    name: "pg",
    config: { policy: "spread", rigor: "strict", topology: "rack" },
  });
  const create = (name: string) =>
    engine.instances.create({ name, config: { "placement.group": "pg", "limits.cpu": "1" } });
  return { ...cluster, create };
}

describe("placement groups over a topology key on every path", () => {
  it("healing moves an instance of a dead member within its rack, and leaves it when the rack is gone", async () => {
    const { engine, clock, create } = await fourMembersInTwoRacks();
    await create("i1");
    await create("i2");
    const location = async (name: string) => (await engine.instances.get("default", name)).location;
    expect([await location("i1"), await location("i2")]).toEqual(["a1", "b1"]);
    // a1 goes silent; the others keep reporting past the healing threshold.
    const alive = ["a2", "b1", "b2"];
    for (let elapsed = 0; elapsed < 90_000; elapsed += 10_000) {
      clock.advance(10_000);
      for (const name of alive) await engine.members.heartbeat(name);
      await engine.tick();
    }
    expect(await location("i1")).toBe("a2");
    // Rack B is full for the group: a third instance is refused naming group and key.
    await expect(create("i3")).rejects.toThrow(
      /placement group "pg" \(strict spread over topology key "rack"/,
    );
  });

  it("a relocation to @group honours the rack; the moving instance may stay within its own rack", async () => {
    const { engine, create } = await fourMembersInTwoRacks();
    await engine.catalog.createGroup({ name: "rack-b", description: "" });
    for (const name of ["b1", "b2"]) await engine.members.patch(name, { groups: ["default", "rack-b"] });
    await create("i1");
    await create("i2");
    for (const name of ["a1", "a2", "b1", "b2"]) await engine.members.heartbeat(name);
    await expect(engine.instances.move("default", "i1", "@rack-b")).rejects.toThrow(/topology key "rack"/);
    const moved = await engine.instances.move("default", "i2", "@rack-b");
    expect(moved).toMatchObject({ from: "b1", instance: { location: "b2" } });
  });
});
