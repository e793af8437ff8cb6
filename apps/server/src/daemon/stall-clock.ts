/**
 * The system clock, plus a measure of berthd's own stalls for the offline
 * rule (@berth/engine's own-stall.ts): a timer that should fire every
 * SAMPLE_MS notes how late it fired. Lateness past SLACK_MS is time the
 * event loop was blocked (a long scriptlet run, a synchronous lock wait),
 * during which heartbeats could not be read.
 */
import type { Clock } from "@berth/engine";

const SAMPLE_MS = 100;
/** Lateness below this is ordinary scheduling noise, not a stall. */
const SLACK_MS = 50;
/** Stalls older than this no longer matter to any offline threshold (at most a day). */
const KEEP_MS = 86_400_000;

export interface StallClock extends Clock {
  stalledMsWithin(windowMs: number): number;
  stop(): void;
}

export function startStallClock(now: () => number = Date.now): StallClock {
  /** Stalls as [end, length], oldest first. */
  const stalls: [number, number][] = [];
  let expected = now() + SAMPLE_MS;
  const timer = setInterval(() => {
    const at = now();
    const late = at - expected;
    if (late > SLACK_MS) stalls.push([at, late]);
    while (stalls.length > 0 && at - stalls[0]![0] > KEEP_MS) stalls.shift();
    expected = at + SAMPLE_MS;
  }, SAMPLE_MS);
  timer.unref();
  return {
    now: () => new Date(now()),
    stalledMsWithin(windowMs) {
      const since = now() - windowMs;
      let total = 0;
      for (let i = stalls.length - 1; i >= 0; i--) {
        const [end, length] = stalls[i]!;
        if (end <= since) break;
        // Only the part of the stall inside the window counts.
        total += Math.min(length, end - since);
      }
      // A stall still under way (the timer has not fired yet) counts too.
      return total + Math.max(0, now() - expected - SLACK_MS);
    },
    stop: () => clearInterval(timer),
  };
}
