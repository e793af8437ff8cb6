import type { LiveSource } from "./live-source.js";
import { ALL_TOPICS } from "./topics.js";

/** The shortest and longest pause between polls. */
export const MIN_POLL_MS = 500;
export const MAX_POLL_MS = 30_000;

/**
 * How long to wait before the next poll: `baseMs`, longer for big clusters
 * (one refetch of 10,000 members is megabytes: 2 s per 1,000 members, at
 * most 30 s), never below half a second.
 */
export function pollDelay(baseMs: number, members: number): number {
  const forSize = Math.ceil(members / 1000) * 2000;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, baseMs, forSize));
}

/**
 * Marks every topic stale at intervals: the seam's stand-in for an event
 * stream. Paused while the tab is hidden (nobody is looking), and polls at
 * once when it is shown again.
 */
export function pollingSource(baseMs: number, membersKnown: () => number): LiveSource {
  return {
    description: `polling every ${Math.round(pollDelay(baseMs, 0) / 100) / 10} s`,
    start(changed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;
      const schedule = () => {
        if (stopped) return;
        timer = setTimeout(tick, pollDelay(baseMs, membersKnown()));
      };
      const tick = () => {
        if (document.visibilityState !== "hidden") changed(ALL_TOPICS);
        schedule();
      };
      const onVisible = () => {
        if (document.visibilityState !== "visible" || stopped) return;
        clearTimeout(timer);
        tick();
      };
      document.addEventListener("visibilitychange", onVisible);
      schedule();
      return () => {
        stopped = true;
        clearTimeout(timer);
        document.removeEventListener("visibilitychange", onVisible);
      };
    },
  };
}
