import { describe, expect, it } from "vitest";
import { startStallClock } from "./stall-clock.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the event loop, as a long synchronous scriptlet run does. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else on this thread runs
  }
}

describe("startStallClock", () => {
  it("measures how long the event loop was blocked, within the asked window only", async () => {
    const clock = startStallClock();
    try {
      await sleep(250);
      block(600);
      await sleep(250);
      // At least the block minus one sampling period and the slack; a loaded machine only adds.
      expect(clock.stalledMsWithin(10_000)).toBeGreaterThanOrEqual(400);
      expect(clock.stalledMsWithin(10_000)).toBeLessThan(10_000);
      // A window that ends before the block does not see it.
      expect(clock.stalledMsWithin(100)).toBeLessThan(400);
      expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1_000);
    } finally {
      clock.stop();
    }
  });
});
