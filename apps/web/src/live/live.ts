import type { LiveSource } from "./live-source.js";
import { pollingSource } from "./polling-source.js";

/** The default pause between polls; `?poll=MS` in the console's URL changes it (tests use a short one). */
export const DEFAULT_POLL_MS = 2_000;

export function pollBaseFrom(search: string): number {
  const asked = Number(new URLSearchParams(search).get("poll"));
  return Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_POLL_MS;
}

/**
 * The console's live source. The one place that chooses how changes are
 * noticed: when berthd serves `/1.0/events` (issue #18), this returns the
 * events source for servers that advertise it, and polling for older ones.
 */
export function liveSource(search: string, membersKnown: () => number): LiveSource {
  return pollingSource(pollBaseFrom(search), membersKnown);
}
