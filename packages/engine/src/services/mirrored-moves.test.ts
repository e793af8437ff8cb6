import { describe, expect, it } from "vitest";
import type { MemoryStore } from "../memory-store/memory-store.js";
import { withMirrors } from "../rules/claims/mirrors.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";
import { instanceConfig } from "../views/views.js";
import type { Engine } from "./engine.js";

/** An instance created on n1 through the engine, then given a mirror on n2 through the Store (as Ganeti's allocator does). */
async function mirrored(engine: Engine, store: MemoryStore) {
  for (const name of ["n1", "n2", "n3"]) await addMember(engine, name, { diskGb: 100 });
  await engine.createInstance(
    {
      name: "db",
      config: { "limits.memory": "1GiB" },
      devices: { root: { type: "disk", path: "/", pool: "default", size: "10GiB" } },
    },
    { target: "n1" },
  );
  const record = (await store.getInstance("default", "db"))!;
  const { revision, ...rest } = record;
  await store.claim({
    replace: [
      {
        record: { ...rest, secondary: "n2", allocations: withMirrors(record.allocations, "n1", "n2") },
        expectedRevision: revision,
      },
    ],
  });
  await engine.createInstance({ name: "solo" }, { target: "n1" });
}

describe("two-member instances in the engine's moves", () => {
  it("refuses to move a mirrored instance, naming its secondary, and moves nothing", async () => {
    const { engine, store } = await testCluster();
    await mirrored(engine, store);
    const error = await failure(engine.moveInstance("default", "db", "n3"));
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe(
      'Instance "db" in project "default" is mirrored on cluster member "n2": a two-member instance moves only by failover to its secondary or a new secondary (Ganeti\'s failover and replace-disks)',
    );
    expect((await store.getInstance("default", "db"))!.location).toBe("n1");
  });

  it("refuses to evacuate the primary or the secondary of a mirror, all or nothing", async () => {
    const { engine, store } = await testCluster();
    await mirrored(engine, store);
    const onPrimary = await failure(engine.evacuateMember("n1"));
    expect(onPrimary.message).toBe(
      'Failed to evacuate cluster member "n1": instance "db" in project "default" runs there, mirrored on "n2": a two-member instance moves only by failover to its secondary or a new secondary (Ganeti\'s failover and replace-disks)',
    );
    expect((await store.getInstance("default", "solo"))!.location).toBe("n1");
    const onSecondary = await failure(engine.evacuateMember("n2"));
    expect(onSecondary.message).toContain('instance "db" in project "default" is mirrored there from "n1"');
    expect(engine.getMember("n2").status).toBe("Online");
    expect((await engine.evacuateMember("n3")).moved).toEqual([]);
  });

  it("an edit keeps the mirror: the new disk size counts on both members", async () => {
    const { engine, store } = await testCluster();
    await mirrored(engine, store);
    await engine.updateInstance("default", "db", {
      devices: { root: { type: "disk", path: "/", pool: "default", size: "20GiB" } },
    });
    const record = (await store.getInstance("default", "db"))!;
    expect(record.secondary).toBe("n2");
    // The LXD view shows it as a volatile key.
    expect(instanceConfig(record)["volatile.cluster.secondary"]).toBe("n2");
    expect(
      instanceConfig((await store.getInstance("default", "solo"))!)["volatile.cluster.secondary"],
    ).toBeUndefined();
    const [n2] = await store.memberUsage(["n2"]);
    expect(n2!.used).toEqual({ DISK_GB: 20 });
  });
});
