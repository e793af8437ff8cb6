/**
 * The system clock, plus a measure of berthd's own stalls for the offline
 * rule (@berth/engine's own-stall.ts): a timer that should fire every
 * SAMPLE_MS notes how late it fired. Lateness past SLACK_MS is time the
 * event loop was blocked (a long scriptlet run, a synchronous lock wait),
 * during which heartbeats could not be read.
 */
import { type Clock, StallLog } from "@berth/engine";

const SAMPLE_MS = 100;
/** Lateness below this is ordinary scheduling noise, not a stall. */
const SLACK_MS = 50;

export interface StallClock extends Clock {
  stalledMsWithin(windowMs: number): number;
  stop(): void;
}

export function startStallClock(now: () => number = Date.now): StallClock {
  const stalls = new StallLog(now);
  let expected = now() + SAMPLE_MS;
  const timer = setInterval(() => {
    const at = now();
    const late = at - expected;
    if (late > SLACK_MS) stalls.record(at, late);
    expected = at + SAMPLE_MS;
  }, SAMPLE_MS);
  timer.unref();
  return {
    now: () => new Date(now()),
    stalledMsWithin(windowMs) {
      // A stall still under way (the timer has not fired yet) counts too.
      return stalls.stalledMsWithin(windowMs) + Math.max(0, now() - expected - SLACK_MS);
    },
    stop: () => clearInterval(timer),
  };
}
