/**
 * Offline detection must not blame members for the server's own stalls: a
 * heartbeat that arrived while this process was blocked (a long scriptlet
 * run, a synchronous lock wait) sits unread in its socket, and the first
 * thing the process does afterwards may be the offline check. So the
 * threshold is stretched by the time the process itself could not run
 * within it, as measured by the clock (Clock.stalledMsWithin; clocks that
 * do not measure stretch nothing).
 */
import type { Clock } from "../clock.js";

/** `thresholdMs` plus the process's own stalls within the (stretched) window. */
export function offlineThresholdAfterStalls(thresholdMs: number, clock: Clock): number {
  if (clock.stalledMsWithin === undefined) return thresholdMs;
  // The stall itself lengthens the window a heartbeat may be missing from: look once more over the longer window.
  const first = clock.stalledMsWithin(thresholdMs);
  return first === 0 ? thresholdMs : thresholdMs + clock.stalledMsWithin(thresholdMs + first);
}
