/**
 * LXD's `default` cluster group: it always exists, every member belongs to
 * it (new members join it, an edit of a member's groups keeps it), and it
 * can be neither deleted nor renamed.
 */
import { forbidden } from "../base/errors.js";

export const DEFAULT_GROUP = "default";

/** `groups` with `default` first when it is missing. */
export function withDefaultGroup(groups: readonly string[]): string[] {
  return groups.includes(DEFAULT_GROUP) ? [...groups] : [DEFAULT_GROUP, ...groups];
}

/** LXD's refusals (403) for deleting or renaming the default group. */
export function refuseDefaultGroupChange(name: string, change: "deleted" | "renamed"): void {
  if (name === DEFAULT_GROUP) throw forbidden(`The '${DEFAULT_GROUP}' cluster group cannot be ${change}`);
}
