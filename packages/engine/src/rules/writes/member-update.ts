/**
 * Editing a member's fields (`Store.updateMember`). Placement's rule:
 * traits are part of what a plan was made against, so changing them moves
 * the generation; nothing else does. Heartbeats and reported state reach
 * other engines through `tick()` (health/heartbeat-sync.ts), so they add no
 * feed entry; any other field is something other engines must re-read.
 */
import type { ChangeEntry } from "../../store/change-feed.js";
import type { MemberPatch } from "../../store/port.js";
import { recordChanged, sameVersion } from "../../store/record-version.js";
import type { MemberRecord } from "../../store/records.js";
import { memberEntry } from "./member-entries.js";
import { checkMemberGeneration } from "./member-generation.js";
import { requireGroups, uniqueNames } from "./member-references.js";

/** What the edit is conditional on: the generation and/or the edited fields as the caller read them. */
export interface MemberExpectation {
  /**
   * The member's generation as the caller read it; a different stored one is a conflict. Absent:
   * unchecked.
   */
  generation?: number;
  /** The fields as read: when any differs from the stored member, nothing is written (`recordChanged`). */
  fields?: MemberPatch;
}

/** What a Store reads, in its transaction, before it edits a member. */
export interface MemberUpdateReads {
  /** The stored member (not_found checked by the Store's read: `requireMemberRow`). */
  member: Pick<MemberRecord, "generation" | "joinOrder"> & Partial<MemberRecord>;
  /** Which of the patch's groups exist (empty when it sets none). */
  groups: ReadonlySet<string>;
}

/** What the Store writes for a checked edit. */
export interface CheckedMemberUpdate {
  /** The patch as stored: groups and traits once each. */
  patch: MemberPatch;
  /** The member's generation after the edit. */
  generation: number;
  /** The feed entry to append, if the edit needs one. */
  entry: ChangeEntry | undefined;
}

/** Whether a patch changes what other engines must re-read (anything but the heartbeat and state). */
export function patchMovesFeed(patch: MemberPatch): boolean {
  return Object.keys(patch).some((field) => field !== "lastHeartbeat" && field !== "state");
}

/** The fields of `member` that `fields` names, to compare versions of just those. */
function fieldsOf(member: Partial<MemberRecord>, fields: MemberPatch): MemberPatch {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(fields)) out[field] = member[field as keyof MemberPatch];
  return out as MemberPatch;
}

/**
 * Judges a member edit against what the Store read: the generation and fields the caller expected;
 * answers the patch to store, the generation and the feed entry.
 */
export function checkMemberUpdate(
  name: string,
  patch: MemberPatch,
  expected: MemberExpectation,
  reads: MemberUpdateReads,
): CheckedMemberUpdate {
  const { member } = reads;
  checkMemberGeneration(name, expected.generation, member.generation);
  if (expected.fields !== undefined && !sameVersion(fieldsOf(member, expected.fields), expected.fields))
    throw recordChanged("Cluster member", name);
  if (patch.groups !== undefined) requireGroups(patch.groups, reads.groups);
  const stored: MemberPatch = { ...patch };
  if (patch.groups !== undefined) stored.groups = uniqueNames(patch.groups);
  if (patch.traits !== undefined) stored.traits = uniqueNames(patch.traits);
  return {
    patch: stored,
    generation: member.generation + (patch.traits !== undefined ? 1 : 0),
    entry: patchMovesFeed(patch) ? memberEntry(name, member.joinOrder, "updated") : undefined,
  };
}
