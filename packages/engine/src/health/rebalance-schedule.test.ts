import { describe, expect, it } from "vitest";
import { RebalanceSchedule } from "./rebalance-schedule.js";

const MINUTE = 60_000;

describe("the automatic rebalancing schedule (Incus: minutes since start divisible by the interval)", () => {
  it("runs on the multiples of the interval counted from the start, once each, never at the start", () => {
    const schedule = new RebalanceSchedule(0);
    expect(schedule.due(0, 0)).toBe(false);
    expect(schedule.nextRun()).toBeNull();
    expect(schedule.due(0, 2)).toBe(false);
    expect(schedule.nextRun()).toBe(2 * MINUTE);
    expect(schedule.due(2 * MINUTE - 1, 2)).toBe(false);
    expect(schedule.due(2 * MINUTE + 4_000, 2)).toBe(true);
    expect(schedule.due(2 * MINUTE + 9_000, 2)).toBe(false);
    expect(schedule.nextRun()).toBe(4 * MINUTE);
    // A multiple skipped (no tick then) is not made up: the next tick runs once.
    expect(schedule.due(7 * MINUTE, 2)).toBe(true);
    expect(schedule.due(7 * MINUTE + 1, 2)).toBe(false);
  });

  it("set mid-way, first runs at the next multiple; disabled, forgets", () => {
    const schedule = new RebalanceSchedule(10_000);
    expect(schedule.due(10_000 + 90_000, 1)).toBe(false);
    expect(schedule.nextRun()).toBe(10_000 + 2 * MINUTE);
    expect(schedule.due(10_000 + 2 * MINUTE, 1)).toBe(true);
    expect(schedule.due(10_000 + 150_000, -1)).toBe(false);
    expect(schedule.nextRun()).toBeNull();
    // A changed interval counts from the start too: 5 minutes after it, not after the change.
    expect(schedule.due(10_000 + 3 * MINUTE, 5)).toBe(false);
    expect(schedule.nextRun()).toBe(10_000 + 5 * MINUTE);
    expect(schedule.due(10_000 + 5 * MINUTE, 5)).toBe(true);
  });
});
