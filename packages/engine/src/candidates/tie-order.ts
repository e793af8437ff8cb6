/**
 * The order members a ranking keys alike are taken in (the stack's "Tie
 * order"). By default join order, LXD/Incus's tie-break. A seeded order
 * instead sorts members by a hash of the seed and the member's name: every
 * seed gives its own order, fixed for the seed (a member keeps its place
 * whoever joins or leaves), and two seeds' orders are unrelated. Several
 * servers on one database, each with its own seed, thus take their next
 * member from different places among the equally loaded ones, so their
 * concurrent claims seldom lock the same member rows. (A rotation of join
 * order would not do: a server that starts behind another catches up with
 * its frontier and then follows it, claiming the same members.)
 */
import { EngineError } from "../base/errors.js";
import type { MemberState } from "../model/member-state.js";

/** Puts a list of members (given in join order) in tie order; may reorder the list it is given. */
export type TieOrder = (members: MemberState[]) => MemberState[];

export const joinOrder: TieOrder = (members) => members;

/** The largest seed (seeds are 32-bit unsigned integers). */
export const MAX_TIE_SEED = 0xffff_ffff;

/** 32 bits of `name` mixed with `seed`: FNV-1a over the name's UTF-16 units, then murmur3's finalizer. */
export function tieKey(seed: number, name: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

export function seededTieOrder(seed: number): TieOrder {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_TIE_SEED)
    throw new EngineError(
      "invalid",
      `Invalid tie seed ${seed}: expected a whole number from 0 to ${MAX_TIE_SEED}`,
    );
  const keys = new Map<string, number>();
  const keyOf = (member: MemberState): number => {
    let key = keys.get(member.name);
    if (key === undefined) {
      key = tieKey(seed, member.name);
      keys.set(member.name, key);
    }
    return key;
  };
  // Array.prototype.sort is stable: two names with the same key keep join order.
  return (members) => members.sort((a, b) => keyOf(a) - keyOf(b));
}
