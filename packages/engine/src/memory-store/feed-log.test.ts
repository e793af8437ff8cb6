/**
 * The memory store's change feed keeps its newest entries up to a weight:
 * a reader behind what it keeps is told to re-hydrate, a reader in step
 * reads on, and the last write's entries are never dropped.
 */
import { describe, expect, it } from "vitest";
import type { ChangeEntry } from "../store/change-feed.js";
import { DEFAULT_FEED_WEIGHT_KEPT, FeedLog } from "./feed-log.js";

const CONFIG: ChangeEntry = { kind: "config" };

/** A claim entry weighing 1 + `instances` + 1 usage row. */
function claimOf(instances: number): ChangeEntry {
  const change = {
    member: "n1",
    project: "default",
    type: "container" as const,
    forthcoming: false,
    placementGroup: null,
    cpu: 1,
    memoryBytes: 0,
    diskBytes: 0,
    count: 1,
  };
  return {
    kind: "claim",
    effect: {
      usage: [["n1", "VCPU", "used", instances]],
      instances: Array.from({ length: instances }, () => change),
    },
  };
}

/** Lets the write's announcement (a microtask) run, as any `await` after a write does. */
const committed = () => Promise.resolve();

describe("the memory store's change feed", () => {
  it("answers everything after a cursor, and a cursor that counts every entry written", async () => {
    const log = new FeedLog();
    log.push(CONFIG);
    log.push(claimOf(2));
    await committed();
    expect(log.read(0)).toEqual({ entries: [CONFIG, claimOf(2)], cursor: "2" });
    expect(log.read(1)).toEqual({ entries: [claimOf(2)], cursor: "2" });
    expect(log.read(2)).toEqual({ entries: [], cursor: "2" });
    expect(log.head).toBe(2);
  });

  it("drops its oldest entries past the weight it keeps, and tells a reader behind them to re-hydrate", async () => {
    const log = new FeedLog(10);
    for (let i = 0; i < 5; i++) {
      log.push(claimOf(2)); // weight 4 each
      await committed();
    }
    // 5 entries of weight 4: the newest two (8) are kept, the three before them dropped.
    expect(log.head).toBe(5);
    expect(log.read(0)).toEqual({ entries: [], cursor: "5", reset: true });
    expect(log.read(2)).toEqual({ entries: [], cursor: "5", reset: true });
    expect(log.read(3).entries).toHaveLength(2);
    expect(log.read(3).reset).toBeUndefined();
    expect(log.read(5)).toEqual({ entries: [], cursor: "5" });
  });

  it("keeps the entries of the last write even when they alone weigh more than it keeps", async () => {
    const log = new FeedLog(10);
    log.push(CONFIG);
    await committed();
    // One write of two entries, 1 + 52 + 1 = 54 in all.
    log.push(claimOf(50));
    log.push(CONFIG);
    await committed();
    expect(log.read(0)).toEqual({ entries: [], cursor: "3", reset: true });
    expect(log.read(1).entries).toEqual([claimOf(50), CONFIG]);
  });

  it("still reads in order after many drops (the dropped prefix is cut off in one go)", async () => {
    const log = new FeedLog(3);
    for (let i = 0; i < 1000; i++) {
      log.push({ kind: "member", name: `n${i}`, joinOrder: i, change: "created" });
      await committed();
    }
    expect(log.head).toBe(1000);
    expect(log.read(996).reset).toBe(true);
    expect(log.read(997).entries.map((e) => (e.kind === "member" ? e.name : ""))).toEqual([
      "n997",
      "n998",
      "n999",
    ]);
  });

  it("tells listeners of each write once, after the write", async () => {
    const log = new FeedLog(DEFAULT_FEED_WEIGHT_KEPT);
    const told: ChangeEntry[][] = [];
    log.listen((entries) => told.push([...entries]));
    log.push(CONFIG);
    log.push(claimOf(1));
    expect(told).toEqual([]);
    await committed();
    expect(told).toEqual([[CONFIG, claimOf(1)]]);
  });
});
