import type { ChangeEntry } from "@berth/engine";

/**
 * What a member write does in its adapter's own way: the locking order a
 * claim keeps (PostgreSQL locks members' rows in name order; SQLite's one
 * writer holds the whole file) and change-feed appends.
 */
export interface MemberSide {
  /** Locks the named members' rows as a claim does; the names of those that exist (or may). */
  lockMembers(names: readonly string[]): Promise<string[]>;
  /** Appends change-feed entries in the same transaction. */
  append(entries: ChangeEntry[]): Promise<void>;
}
