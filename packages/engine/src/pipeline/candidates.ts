/**
 * Runs the feasibility filters over every member (O(members)) and orders the
 * survivors as LXD/Incus do: fewest instances first (reservations and
 * in-flight placements included), ties in join order; then the placement
 * group policy refines the order (or, strict, the set).
 */
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { PlacementContext } from "./context.js";
import { CANDIDATE_FILTERS, type CandidateFilter } from "./filters.js";
import { applyPlacementGroup } from "./placement-groups.js";
import type { Rejection } from "./rejection.js";

export interface CandidateSet {
  candidates: MemberState[];
  rejected: { member: string; rejection: Rejection }[];
}

export function firstRejection(
  member: MemberState,
  context: PlacementContext,
  filters: readonly CandidateFilter[],
): Rejection | undefined {
  for (const filter of filters) {
    const why = filter.reject(member, context);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Default order: fewest instances (incl. reservations and in-flight), then join order. */
export function byLoad(members: MemberState[]): MemberState[] {
  return [...members].sort((a, b) => a.load - b.load || a.record.joinOrder - b.record.joinOrder);
}

export function findCandidates(
  model: ClusterModel,
  context: PlacementContext,
  filters: readonly CandidateFilter[] = CANDIDATE_FILTERS,
): CandidateSet {
  const rejected: CandidateSet["rejected"] = [];
  const feasible: MemberState[] = [];
  for (const member of model.allMembers()) {
    const why = firstRejection(member, context, filters);
    if (why === undefined) feasible.push(member);
    else rejected.push({ member: member.name, rejection: why });
  }
  let candidates = byLoad(feasible);
  if (context.placementGroup !== null) {
    const counts = model.groupCountsOf(context.placementGroup.project, context.placementGroup.name);
    const grouped = applyPlacementGroup(context.placementGroup, counts, candidates);
    candidates = grouped.kept;
    rejected.push(...grouped.rejected);
  }
  return { candidates, rejected };
}
