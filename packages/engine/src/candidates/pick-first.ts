/**
 * The first candidate of a single ranking without ordering anyone: the
 * member (in the stack's tie order) with the lowest key that the usage filters admit.
 * It is what the ordered list would put first, at a fraction of the cost.
 *
 * A full scan is O(members). For a ranking whose keys only grow while the
 * model's load epoch stays (the default policy's instance counts), a hint
 * kept with the cached candidate set makes repeated picks (a bulk create, a
 * stream of creates) O(1) amortized: while the epoch stays, no member is
 * below the `floor` key the last full scan saw, and the members before
 * `cursor` are above it, so the first member from `cursor` on that sits
 * exactly at the floor and is admitted is the answer. When none is, a full
 * scan decides and refreshes the hint.
 */
import type { MemberState } from "../model/member-state.js";
import { admitsAll, type Timing, type UsageCheck } from "./filter.js";
import type { Ranking } from "./ranker.js";

/** What the last full scan of one cached candidate set learnt (see above). */
export interface ScanHint {
  epoch: number;
  /** NaN: unknown (scan everything). */
  floor: number;
  cursor: number;
}

export function pickFirst(
  members: readonly MemberState[],
  ranking: Ranking,
  checks: readonly UsageCheck[],
  time: Timing,
  hint: ScanHint | null,
): MemberState | undefined {
  const key = ranking.key;
  if (hint !== null && !Number.isNaN(hint.floor)) {
    const floor = hint.floor;
    let cursor = hint.cursor;
    let skippedAtFloor = false;
    for (let index = cursor; index < members.length; index++) {
      const member = members[index]!;
      const rank = key(member);
      if (rank > floor) {
        if (!skippedAtFloor) cursor = index + 1;
        continue;
      }
      // Below the floor would mean a key shrank unnoticed: trust only a full scan.
      if (rank < floor) break;
      if (admitsAll(checks, member, time)) {
        hint.cursor = cursor;
        return member;
      }
      skippedAtFloor = true;
    }
  }
  let best: MemberState | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  let lowest = Number.POSITIVE_INFINITY;
  let firstAtLowest = 0;
  for (let index = 0; index < members.length; index++) {
    const member = members[index]!;
    const rank = key(member);
    if (rank < lowest) {
      lowest = rank;
      firstAtLowest = index;
    }
    if (best !== undefined && rank >= bestRank) continue;
    if (admitsAll(checks, member, time)) {
      best = member;
      bestRank = rank;
    }
  }
  if (hint !== null) {
    hint.floor = members.length === 0 ? Number.NaN : lowest;
    hint.cursor = firstAtLowest;
  }
  return best;
}
