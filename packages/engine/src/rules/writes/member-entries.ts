/**
 * The change-feed entry every member write but a heartbeat appends, in the
 * same transaction: other engines re-read the member it names.
 */
import type { ChangeEntry } from "../../store/change-feed.js";

/** The feed entry of a member created, updated or deleted. */
export function memberEntry(
  name: string,
  joinOrder: number,
  change: "created" | "updated" | "deleted",
): ChangeEntry {
  return { kind: "member", name, joinOrder, change };
}
