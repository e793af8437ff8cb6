import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { EngineMetrics, PLACEMENT_SECONDS_BUCKETS } from "./metrics.js";

describe("EngineMetrics", () => {
  it("keeps cumulative histogram buckets, sums and counts", () => {
    const metrics = new EngineMetrics();
    metrics.placed("create", 1, 0.0002);
    metrics.placed("create", 1, 0.003);
    metrics.failed("create", "insufficient_capacity", 2);
    const histogram = metrics.snapshot().durations.create!;
    expect(histogram.buckets).toEqual(PLACEMENT_SECONDS_BUCKETS);
    // <= 0.00025: one; <= 0.005: two; <= 1 (the last bound): still two; the 2 s one is only in `count`.
    expect(histogram.counts[PLACEMENT_SECONDS_BUCKETS.indexOf(0.00025)]).toBe(1);
    expect(histogram.counts[PLACEMENT_SECONDS_BUCKETS.indexOf(0.005)]).toBe(2);
    expect(histogram.counts.at(-1)).toBe(2);
    expect(histogram.count).toBe(3);
    expect(histogram.sum).toBeCloseTo(2.0032);
    expect(metrics.snapshot().failures).toEqual({ create: { insufficient_capacity: 1 } });
  });
});

describe("the engine counts every placement-making operation once", () => {
  it("creates, reservations, dry runs, bulk, moves, commits and evacuations, with failures by kind", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1", { vcpu: 4 });
    await addMember(engine, "n2", { vcpu: 4 });
    await engine.createInstance({ name: "a", config: { "limits.cpu": "1" } });
    await engine.createInstance({ name: "r", forthcoming: true, config: { "limits.cpu": "1" } });
    await engine.dryRun({ name: "d", config: { "limits.cpu": "1" } });
    const rejected = await engine.dryRun({ name: "huge", config: { "limits.cpu": "64" } });
    expect(rejected.decision.outcome).toBe("rejected");
    await engine.bulkCreate([
      { name: "b1", config: { "limits.cpu": "1" } },
      { name: "b2", config: { "limits.cpu": "1" } },
    ]);
    await engine.createInstance({ name: "big", config: { "limits.cpu": "64" } }).catch(() => undefined);
    const a = await engine.getInstance("default", "a");
    await engine.moveInstance("default", "a", a.location === "n1" ? "n2" : "n1");
    await engine.commitReservation("default", "r");
    const moved = await engine.evacuateMember("n1");

    expect(moved.moved.length).toBeGreaterThan(0);
    const snapshot = engine.metrics();
    expect(snapshot.placements).toEqual({
      create: 1,
      reservation: 1,
      dry_run: 1,
      bulk: 2,
      move: 1,
      commit: 1,
      evacuation: moved.moved.length,
    });
    expect(snapshot.failures).toEqual({
      create: { insufficient_capacity: 1 },
      dry_run: { insufficient_capacity: 1 },
    });
    expect(snapshot.durations.create?.count).toBe(2);
    expect(snapshot.durations.dry_run?.count).toBe(2);
    expect(snapshot.durations.bulk?.count).toBe(1);
    expect(snapshot.scriptletRuns).toEqual({});
    expect(snapshot.scriptletSteps.count).toBe(0);
  });
});
