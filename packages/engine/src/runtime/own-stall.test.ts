import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { clockStalls, offlineThresholdAfterStalls, StallLog } from "./own-stall.js";

/** A manual clock that also says the process stood still for `stalls` (as [end, length] in its own time). */
class StallingClock extends ManualClock {
  stalls: [number, number][] = [];
  stalledMsWithin(windowMs: number): number {
    const since = this.now().getTime() - windowMs;
    return this.stalls.reduce(
      (sum, [end, length]) => (end <= since ? sum : sum + Math.min(length, end - since)),
      0,
    );
  }
}

describe("the server's own stalls and the offline rule", () => {
  it("stretches the threshold by the stalls inside it, and by nothing for clocks that do not measure", () => {
    const clock = new StallingClock(0);
    clock.advance(100_000);
    expect(offlineThresholdAfterStalls(20_000, clock)).toBe(20_000);
    clock.stalls.push([95_000, 15_000]);
    expect(offlineThresholdAfterStalls(20_000, clock)).toBe(35_000);
    // A stall that ended before the window no longer stretches it.
    clock.advance(60_000);
    expect(offlineThresholdAfterStalls(20_000, clock)).toBe(20_000);
    expect(offlineThresholdAfterStalls(20_000, clockStalls(new ManualClock(0)))).toBe(20_000);
  });

  it("widens the window until it holds no stall it has not counted", () => {
    let now = 100_000;
    const log = new StallLog(() => now);
    // Two stalls, the older one only reached once the window takes in the newer one.
    log.record(70_000, 10_000);
    log.record(95_000, 15_000);
    // Awake for 20 s needs 95-100 (5 s), 70-80 (10 s) and 55-60 (5 s): the window starts at 55 s.
    expect(offlineThresholdAfterStalls(20_000, log)).toBe(45_000);
    now = 200_000;
    expect(offlineThresholdAfterStalls(20_000, log)).toBe(20_000);
  });

  it("keeps members online (and unhealed) whose heartbeats the stalled server could not read", async () => {
    const clock = new StallingClock();
    const { engine } = await testCluster({ clock });
    await engine.setConfig({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "20" });
    for (const name of ["n1", "n2", "n3", "n4"]) await addMember(engine, name);
    clock.advance(10_000);
    // The server stood still for 15 s (#17: four runaway scriptlets); the members' heartbeats wait unread.
    clock.advance(15_000);
    clock.stalls.push([clock.now().getTime(), 15_000]);
    const report = await engine.tick();
    expect(report.offline).toEqual([]);
    expect(report.healed).toEqual([]);
    // Without the stall the same silence is offline: the rule only forgives the server's own time.
    clock.stalls = [];
    expect((await engine.tick()).offline).toEqual(["n1", "n2", "n3", "n4"]);
  });
});
