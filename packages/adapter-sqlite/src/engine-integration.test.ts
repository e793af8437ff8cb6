import { Engine } from "@berth/engine";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../test-support/temp-dir.fixture.js";
import { openStore } from "./open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

describe("the engine on a SQLite file", () => {
  it("places instances, and a second engine hydrated from the file continues where it left off", async () => {
    const file = dir.file("engine.db");
    const store = await openStore(file);
    const engine = await Engine.open({ store });
    await engine.members.create({
      name: "node1",
      inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 8192 } },
    });
    await engine.members.create({
      name: "node2",
      inventories: { VCPU: { total: 4 }, MEMORY_MB: { total: 8192 } },
    });
    const placed = [];
    for (const name of ["web1", "web2", "web3"]) {
      placed.push((await engine.instances.create({ name, config: { "limits.cpu": "2" } })).instance.location);
    }
    // Default policy: fewest instances first, ties by join order.
    expect(placed).toEqual(["node1", "node2", "node1"]);
    expect((await store.check()).ok).toBe(true);
    await store.close();

    const reopened = await openStore(file);
    const second = await Engine.open({ store: reopened });
    // node1 is full for 2-CPU instances (4 of 4 used); the hydrated model knows it.
    expect(
      (await second.instances.create({ name: "web4", config: { "limits.cpu": "2" } })).instance.location,
    ).toBe("node2");
    await expect(
      second.instances.create({ name: "web5", config: { "limits.cpu": "2" } }),
    ).rejects.toMatchObject({
      kind: "insufficient_capacity",
    });
    const usage = await reopened.memberUsage(["node1", "node2"]);
    expect(usage.map((u) => u.used.VCPU)).toEqual([4, 4]);
    expect((await reopened.check()).violations).toEqual([]);
    await reopened.close();
  });
});
