import { describe, expect, it } from "vitest";
import { MemoryStore } from "../memory-store/memory-store.js";
import { failure as refusal } from "../testing/failure.fixture.js";
import { clusterOf, node, spec } from "../testing/snapshot.fixture.js";
import { placeBatch } from "./batch.js";
import { LEDGER_DISK_CLASS, SnapshotLedger } from "./ledger.js";
import { evacuateInstance } from "./moves.js";

describe("SnapshotLedger", () => {
  it("loads the cluster into the Store: its instances fit exactly, the free figures are what is left", async () => {
    const cluster = clusterOf([node("a", "g1", 4096), node("b", "g1", 6144)]);
    cluster.addExisting(spec("db", "drbd", 2048), ["a", "b"]);
    cluster.addExisting(spec("web", "plain", 1024), ["b"]);
    const store = new MemoryStore();
    await SnapshotLedger.open(cluster, store);
    const [a, b] = await Promise.all([store.getMember("a"), store.getMember("b")]);
    // a: its primary's 2 GiB + 4 GiB free; b: its primary's 1 GiB + 6 GiB free (more than the 2 GiB it keeps for a).
    expect(a!.inventories.MEMORY_MB!.total).toBe(6144);
    expect(b!.inventories.MEMORY_MB!.total).toBe(7168);
    expect(b!.inventories[LEDGER_DISK_CLASS]!.total).toBe(100_000 + 2048);
    const db = (await store.getInstance("default", "db"))!;
    expect([db.location, db.secondary]).toEqual(["a", "b"]);
    const usage = await store.memberUsage(["a", "b"]);
    expect(usage.map((entry) => entry.used)).toEqual([
      { MEMORY_MB: 2048, [LEDGER_DISK_CLASS]: 1024 },
      { [LEDGER_DISK_CLASS]: 2048, MEMORY_MB: 1024 },
    ]);
  });

  it("commits what the search placed, and the moves of an evacuation, as claims", async () => {
    const cluster = clusterOf([node("a", "g1", 8192), node("b", "g1", 8192), node("c", "g1", 8192)]);
    cluster.addExisting(spec("db", "drbd", 2048), ["a", "b"]);
    const store = new MemoryStore();
    const ledger = await SnapshotLedger.open(cluster, store);
    const outcome = placeBatch(cluster, [spec("new1", "drbd", 1024), spec("new2", "plain", 512)], {
      allOrNothing: false,
    });
    expect(outcome.searches.every((search) => search.chosen !== undefined)).toBe(true);
    const created = await ledger.commit();
    expect(created!.instances.map((record) => `${record.project}/${record.name}`).sort()).toEqual([
      "placed/new1",
      "placed/new2",
    ]);
    expect(await ledger.commit()).toBeUndefined();
    const evacuated = evacuateInstance(cluster, "db", "secondary-only");
    expect(evacuated.moved).toBe(true);
    const moved = await ledger.commit();
    const db = moved!.instances.find((record) => record.name === "db")!;
    expect(db.location).toBe("a");
    expect(db.secondary).not.toBe("b");
    expect((await store.listInstances({ secondary: "b" })).map((record) => record.name)).not.toContain("db");
  });

  it("is the last word: a placement that breaks N+1 on the secondary is refused by the claim rules", async () => {
    // b has 4 GiB free and already keeps 3 GiB for a's instances.
    const cluster = clusterOf([node("a", "g1", 8192), node("b", "g1", 4096)]);
    cluster.addExisting(spec("db", "drbd", 3072), ["a", "b"]);
    const ledger = await SnapshotLedger.open(cluster);
    // Bypassing the search: 2 GiB more mirrored from a would need 5 GiB free on b.
    cluster.addNew(spec("more", "drbd", 2048), ["a", "b"]);
    const failure = await refusal(ledger.commit());
    expect(failure.details).toMatchObject({ reason: "failover", member: "b", primary: "a", requested: 5120 });
    // And a disk the secondary lacks room for.
    const full = clusterOf([node("a", "g1", 8192), node("b", "g1", 8192, { freeDisk: 500 })]);
    const fullLedger = await SnapshotLedger.open(full);
    full.addNew(spec("big", "drbd", 512, { disks: [{ size: 1024, spindles: 1 }] }), ["a", "b"]);
    expect((await refusal(fullLedger.commit())).details).toMatchObject({
      reason: "capacity",
      member: "b",
      resourceClass: LEDGER_DISK_CLASS,
    });
  });
});
