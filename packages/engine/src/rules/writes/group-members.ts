/**
 * Replacing a cluster group's member list (LXD's ClusterGroupPut carries
 * it), in one transaction: the group and every member named exist, then
 * exactly the named members belong to it. A member that joins gets the
 * group last in its list; one that leaves loses it; the others are not
 * written. No member leaves the `default` group (every member belongs to
 * it). Group edits do not move a member's generation (only traits and
 * inventories do); each written member gets a feed entry.
 */
import { notFound } from "../../base/errors.js";
import type { ChangeEntry } from "../../store/change-feed.js";
import type { MemberRecord } from "../../store/records.js";
import { DEFAULT_GROUP } from "./default-group.js";
import { memberEntry } from "./member-entries.js";
import { memberNotFound } from "./member-generation.js";

/** A member as a group edit reads it. */
export type GroupMemberRow = Pick<MemberRecord, "name" | "joinOrder" | "groups">;

/** What a Store reads, in its transaction, before it replaces a group's members. */
export interface GroupMembersReads {
  /** The cluster group being edited exists (false: not_found, nothing written). */
  groupExists: boolean;
  /** Every member named in the new list that exists, and every member in the group now. */
  members: readonly GroupMemberRow[];
}

/** One member's groups to write. */
export interface GroupMemberWrite {
  /** The member. */
  name: string;
  /** Its join order (for its feed entry). */
  joinOrder: number;
  /** Its groups after the edit. */
  groups: string[];
}

/**
 * What `checkGroupMembers` tells the Store to write: each changed member's groups and their feed
 * entries.
 */
export interface CheckedGroupMembers {
  /** Members whose groups change. */
  writes: GroupMemberWrite[];
  /** The change-feed entries to append. */
  entries: ChangeEntry[];
}

/**
 * Makes exactly `wanted` the members of `group`: not_found when the group or a named member is
 * missing; no member ever leaves `default`. Answers only the members whose groups change.
 */
export function checkGroupMembers(
  group: string,
  wanted: readonly string[],
  reads: GroupMembersReads,
): CheckedGroupMembers {
  if (!reads.groupExists) throw notFound(`Cluster group "${group}" not found`);
  const byName = new Map(reads.members.map((member) => [member.name, member]));
  const missing = wanted.find((name) => !byName.has(name));
  if (missing !== undefined) throw memberNotFound(missing);
  const want = new Set(wanted);
  const writes: GroupMemberWrite[] = [];
  for (const member of byName.values()) {
    const has = member.groups.includes(group);
    if (has === want.has(member.name) || (has && group === DEFAULT_GROUP)) continue;
    const groups = has ? member.groups.filter((g) => g !== group) : [...member.groups, group];
    writes.push({ name: member.name, joinOrder: member.joinOrder, groups });
  }
  return {
    writes,
    entries: writes.map((write) => memberEntry(write.name, write.joinOrder, "updated")),
  };
}
