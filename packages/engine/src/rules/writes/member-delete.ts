/**
 * Removing a member: refused while any instance or reservation is located
 * on it, is mirrored on it (its secondary), or holds allocations on it.
 */
import { conflict } from "../../base/errors.js";

/** What a Store reads, in its transaction, before it removes a member. */
export interface MemberDeleteReads {
  /** The name of one instance located or mirrored on it, if any. */
  hostedInstance: string | undefined;
  /** The id of one instance holding allocations on it, if any. */
  allocatedInstance: string | undefined;
}

/**
 * Refuses (conflict) to remove a member that hosts, mirrors or holds allocations of any instance.
 */
export function checkMemberDelete(name: string, reads: MemberDeleteReads): void {
  if (reads.hostedInstance !== undefined)
    throw conflict(`Cluster member "${name}" still hosts instances (e.g. "${reads.hostedInstance}")`);
  if (reads.allocatedInstance !== undefined)
    throw conflict(`Cluster member "${name}" still holds allocations of instance ${reads.allocatedInstance}`);
}
