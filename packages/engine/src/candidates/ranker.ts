/**
 * Rankers order the members that passed every filter. Each ranker looks at
 * the request and the model once per placement and answers a Ranking, or
 * null when it has nothing to say about this request (no placement group).
 *
 * The stack applies the rankings in its order, each refining the one
 * before: a ranking may first turn candidates down (strict placement
 * groups: one reason, said), then it sorts them by its key, lowest first,
 * stably, so members it ranks equal keep the order the rankings before it
 * gave them (and, under all of them, the stack's tie order: join order
 * unless seeded, see stack.ts). The last ranking thus
 * decides first and earlier ones break its ties: the default policy
 * (fewest instances) comes first, a placement group's policy after it.
 */

import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { Rejection } from "./rejection.js";

export interface Ranking {
  /** The member's rank for this placement: lower comes first. */
  key(member: MemberState): number;
  /** Turns a candidate down; absent when the ranking only orders. */
  reject?(member: MemberState): Rejection | undefined;
  /**
   * Set when no member's key can go down while the model's load epoch
   * stays at this value (keys only grow as placements land). The stack
   * then finds the first candidate in O(1) amortized instead of scanning
   * (see `pick-first.ts`).
   */
  readonly growsOnlyAtEpoch?: number;
}

export interface Ranker {
  readonly name: string;
  rank(request: PlacementRequest, model: ClusterModel): Ranking | null;
}
