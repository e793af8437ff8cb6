import { describe, expect, it } from "vitest";
import { RebalanceSchedule } from "./rebalance-schedule.js";

const MINUTE = 60_000;

describe("the automatic rebalancing schedule", () => {
  it("runs one interval after it was first seen enabled, then one interval after each run", () => {
    const schedule = new RebalanceSchedule();
    expect(schedule.due(0, 0)).toBe(false);
    expect(schedule.nextRun()).toBeNull();
    expect(schedule.due(1_000, 2)).toBe(false);
    expect(schedule.nextRun()).toBe(1_000 + 2 * MINUTE);
    expect(schedule.due(1_000 + 2 * MINUTE - 1, 2)).toBe(false);
    expect(schedule.due(1_000 + 2 * MINUTE, 2)).toBe(true);
    schedule.ran(1_000 + 2 * MINUTE + 500);
    expect(schedule.due(1_000 + 3 * MINUTE, 2)).toBe(false);
    expect(schedule.due(1_500 + 4 * MINUTE, 2)).toBe(true);
  });

  it("starts over when the interval changes, and forgets it when disabled", () => {
    const schedule = new RebalanceSchedule();
    schedule.due(0, 10);
    expect(schedule.due(MINUTE, 1)).toBe(false);
    expect(schedule.nextRun()).toBe(2 * MINUTE);
    expect(schedule.due(2 * MINUTE, -1)).toBe(false);
    expect(schedule.nextRun()).toBeNull();
    expect(schedule.due(3 * MINUTE, 1)).toBe(false);
    expect(schedule.due(4 * MINUTE, 1)).toBe(true);
  });
});
