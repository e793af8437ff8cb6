/**
 * LXD's `default` cluster group: every member belongs to it (new members
 * join it, an edit of a member's groups keeps it).
 */
export const DEFAULT_GROUP = "default";

/** `groups` with `default` first when it is missing. */
export function withDefaultGroup(groups: readonly string[]): string[] {
  return groups.includes(DEFAULT_GROUP) ? [...groups] : [DEFAULT_GROUP, ...groups];
}
