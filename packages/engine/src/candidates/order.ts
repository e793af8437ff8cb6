/**
 * Stable ordering by a numeric key: members with equal keys keep the order
 * they came in. Small integer keys (instance counts, placement group
 * counts) take a counting sort, O(members + key range), instead of
 * O(members log members) comparisons; anything else a stable comparison
 * sort.
 */
import type { MemberState } from "../model/member-state.js";

/**
 * `members` ordered by `keys` (by position; it may be longer), ties in
 * input order. Always a Float64Array: one element kind keeps the loops
 * below monomorphic (a generic read of a double allocates).
 */
export function orderByKeys(members: readonly MemberState[], keys: Float64Array): MemberState[] {
  const count = members.length;
  if (count < 2) return [...members];
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  let integral = true;
  for (let index = 0; index < count; index++) {
    const key = keys[index]!;
    if (key < lowest) lowest = key;
    if (key > highest) highest = key;
    if ((key | 0) !== key) integral = false;
  }
  const range = highest - lowest + 1;
  if (!integral || range > 4 * count + 64) {
    const positions = Array.from({ length: count }, (_, index) => index);
    positions.sort((a, b) => keys[a]! - keys[b]! || a - b);
    return positions.map((index) => members[index]!);
  }
  const starts = new Int32Array(range + 1);
  for (let index = 0; index < count; index++) starts[keys[index]! - lowest + 1]! += 1;
  for (let bucket = 1; bucket <= range; bucket++) starts[bucket]! += starts[bucket - 1]!;
  const out = new Array<MemberState>(count);
  for (let index = 0; index < count; index++) {
    const bucket = keys[index]! - lowest;
    out[starts[bucket]!] = members[index]!;
    starts[bucket]! += 1;
  }
  return out;
}
