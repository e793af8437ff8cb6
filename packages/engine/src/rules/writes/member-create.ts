/**
 * Registering a member: its name is free, its groups exist, the custom
 * classes of its inventories exist. Its groups and traits are stored once
 * each. The Store assigns its join order, then appends `memberEntry(...,
 * "created")`.
 */
import { conflict } from "../../base/errors.js";
import type { NewMember } from "../../store/port.js";
import { requireCustomClasses, requireGroups, uniqueNames } from "./member-references.js";

/** What a Store reads, in its transaction, before it registers a member. */
export interface MemberCreateReads {
  /** A member of that name exists already. */
  taken: boolean;
  /** Which of the member's groups exist. */
  groups: ReadonlySet<string>;
  /** Which custom classes of its inventories exist (`customClassesOf`). */
  customClasses: ReadonlySet<string>;
}

/** The member as the Store writes it, or the refusal. */
export function checkMemberCreate(member: NewMember, reads: MemberCreateReads): NewMember {
  if (reads.taken) throw conflict(`Cluster member "${member.name}" already exists`);
  requireGroups(member.groups, reads.groups);
  requireCustomClasses(Object.keys(member.inventories), reads.customClasses);
  return { ...member, groups: uniqueNames(member.groups), traits: uniqueNames(member.traits) };
}
