/**
 * Offline detection must not blame members for the server's own stalls: a
 * heartbeat that arrived while this process was blocked (a long scriptlet
 * run on the event loop, a synchronous lock wait) or stopped sits unread in
 * its socket, and the first thing the process does afterwards may be the
 * offline check. One rule, whoever measures the stalls: the time the
 * process itself could not run is not silence. A clock that measures
 * (Clock.stalledMsWithin: berthd's samples its event loop every 100 ms)
 * is the source; an engine whose clock does not measure but knows its tick
 * period measures how late its ticks come instead (healer-duty.ts).
 */

import type { Clock } from "../base/clock.js";

/** How long the process itself could not run within the last `windowMs`. */
export interface StallSource {
  /** Milliseconds of the last `windowMs` milliseconds during which the process could not run. */
  stalledMsWithin(windowMs: number): number;
}

/** Stalls as [end, length], oldest first, and how much of them falls in a window. */
export class StallLog implements StallSource {
  private readonly stalls: [number, number][] = [];

  constructor(
    private readonly now: () => number,
    /** Stalls older than this no longer matter to any offline threshold (at most a day). */
    private readonly keepMs = 86_400_000,
  ) {}

  /** Notes a stall of `lengthMs` that ended at `endMs` (epoch milliseconds); forgets those past `keepMs`. */
  record(endMs: number, lengthMs: number): void {
    this.stalls.push([endMs, lengthMs]);
    while (this.stalls.length > 0 && endMs - this.stalls[0]![0] > this.keepMs) this.stalls.shift();
  }

  /** The recorded stall time that falls within the last `windowMs` milliseconds (parts of stalls count). */
  stalledMsWithin(windowMs: number): number {
    const since = this.now() - windowMs;
    let total = 0;
    for (let i = this.stalls.length - 1; i >= 0; i--) {
      const [end, length] = this.stalls[i]!;
      if (end <= since) break;
      // Only the part of the stall inside the window counts.
      total += Math.min(length, end - since);
    }
    return total;
  }
}

/** Rounds of widening before giving up: each round takes in the stalls the last widening reached. */
const MAX_ROUNDS = 32;

/**
 * The window in which the process was awake for `thresholdMs`: the
 * offline threshold stretched by the process's own stalls within it (a
 * member silent for longer was silent while the process could hear it).
 * Widened until it holds no stall it has not counted; a process stalled
 * for the whole of every window tried cannot judge silence at all.
 */
export function offlineThresholdAfterStalls(thresholdMs: number, stalls: StallSource | undefined): number {
  if (stalls === undefined) return thresholdMs;
  let window = thresholdMs;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const widened = thresholdMs + stalls.stalledMsWithin(window);
    if (widened - window < 1) return widened;
    window = widened;
  }
  return window;
}

/** The part of `silenceMs` (up to now) during which the process was awake to hear the member. */
export function awakeSilenceMs(silenceMs: number, stalls: StallSource | undefined): number {
  if (stalls === undefined || !Number.isFinite(silenceMs)) return silenceMs;
  return silenceMs - stalls.stalledMsWithin(silenceMs);
}

/** The clock's own measure, when it has one. */
export function clockStalls(clock: Clock): StallSource | undefined {
  const measure = clock.stalledMsWithin?.bind(clock);
  return measure === undefined ? undefined : { stalledMsWithin: measure };
}
