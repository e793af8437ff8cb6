/**
 * LXD's `default` cluster group: it always exists, every member belongs to
 * it (new members join it, an edit of a member's groups keeps it:
 * rules/writes/default-group.ts), and it can be neither deleted nor renamed.
 */
import { forbidden } from "../base/errors.js";
import { DEFAULT_GROUP } from "../rules/writes/default-group.js";

export { DEFAULT_GROUP, withDefaultGroup } from "../rules/writes/default-group.js";

/** LXD's refusals (403) for deleting or renaming the default group. */
export function refuseDefaultGroupChange(name: string, change: "deleted" | "renamed"): void {
  if (name === DEFAULT_GROUP) throw forbidden(`The '${DEFAULT_GROUP}' cluster group cannot be ${change}`);
}
