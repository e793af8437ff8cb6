/**
 * Why the other members were not chosen, for a placement that succeeded:
 * how many members passed every filter, and every other member grouped by
 * the first reason it was turned down for. The decision record keeps it.
 *
 * Running every filter over every member costs ~0.15 ms at 1,000 members
 * and ~7 ms at 10,000, too much for every placement. So the work is split
 * the way the candidate cache splits it:
 * - members turned down by a static filter (evacuated, scheduler rules,
 *   groups, architecture, traits) are explained once per cached static
 *   candidate set, which lives until a member record changes;
 * - the static candidates are walked with the same cheap check the
 *   pipeline uses (online, and the capacity verdict each member
 *   remembers), and only the members it turns down are asked why.
 * A placement then pays one pass over its static candidates with no
 * allocation per member that fits.
 */
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import {
  demandOf,
  firstRejection,
  fitsNow,
  STATIC_FILTERS,
  staticCandidates,
} from "../pipeline/candidates.js";
import type { PlacementContext } from "../pipeline/context.js";
import { capacityFilter, onlineFilter } from "../pipeline/filters.js";
import { applyPlacementGroup } from "../pipeline/placement-groups.js";
import type { Rejection } from "../pipeline/rejection.js";
import type { RejectionGroup } from "../store/records.js";
import { RejectionTally } from "./tally.js";

export interface PlacementExplanation {
  /** Members in the cluster. */
  members: number;
  /** Members that passed every filter (and the placement group's strict rule). */
  candidateCount: number;
  /** Every other member by reason, most frequent first (samples capped, see RejectionTally). */
  rejections: RejectionGroup[];
}

/** Static rejections of one cached static candidate set, tallied once. */
const staticTallies = new WeakMap<readonly MemberState[], RejectionTally>();

function staticTallyOf(model: ClusterModel, context: PlacementContext, passing: readonly MemberState[]) {
  let tally = staticTallies.get(passing);
  if (tally === undefined) {
    tally = new RejectionTally();
    const admitted = new Set(passing);
    for (const member of model.allMembers()) {
      if (admitted.has(member)) continue;
      const why = firstRejection(member, context, STATIC_FILTERS);
      if (why !== undefined) tally.add(member.name, why);
    }
    staticTallies.set(passing, tally);
  }
  return tally;
}

/** Why a static candidate failed the cheap check: offline, or the capacity filter's own reason. */
function dynamicRejection(member: MemberState, context: PlacementContext): Rejection | undefined {
  return onlineFilter.reject(member, context) ?? capacityFilter.reject(member, context);
}

/**
 * Explains a decided placement. `listed` names every candidate when the
 * decision listed them all (a scriptlet, a placement group or a dry run);
 * null when the default policy picked the first without listing the rest,
 * and the walk counts them.
 */
export function explainPlacement(
  model: ClusterModel,
  context: PlacementContext,
  listed: readonly string[] | null,
): PlacementExplanation {
  const passing = staticCandidates(model, context);
  const tally = staticTallyOf(model, context, passing).copy();
  const demand = demandOf(context.request.resources);
  const listedNames = listed === null ? null : new Set(listed);
  const fitting: MemberState[] = [];
  let fitCount = 0;
  for (let index = 0; index < passing.length; index++) {
    const member = passing[index]!;
    if (fitsNow(member, demand, context)) {
      fitCount += 1;
      // Fits but not listed: the placement group's strict rule turned it down.
      if (listedNames !== null && !listedNames.has(member.name)) fitting.push(member);
      continue;
    }
    const why = dynamicRejection(member, context);
    if (why !== undefined) tally.add(member.name, why);
  }
  let candidateCount = fitCount;
  if (listedNames !== null) {
    candidateCount = listedNames.size;
    const group = context.placementGroup;
    if (group !== null && fitting.length > 0) {
      const counts = model.groupCountsOf(group.project, group.name);
      for (const { member, rejection } of applyPlacementGroup(group, counts, fitting).rejected) {
        tally.add(member, rejection);
      }
    }
  }
  return { members: model.allMembers().length, candidateCount, rejections: tally.groups() };
}
