/**
 * Why the other members were not chosen, for a placement that succeeded:
 * how many members passed every filter, and every other member grouped by
 * the first reason it was turned down for. The decision record keeps it.
 *
 * Running every filter over every member costs ~0.15 ms at 1,000 members
 * and ~7 ms at 10,000, too much for every placement. So the work is split
 * the way the stack's candidate cache splits it:
 * - members turned down by a static filter (evacuated, scheduler rules,
 *   groups, architecture, traits) are explained once per cached static
 *   candidate set, which lives until a member record changes;
 * - the static candidates are walked with the same cheap check the stack
 *   uses (its usage filters, bound once per request shape), and only the
 *   members it turns down are asked why.
 * A placement then pays one pass over its static candidates with no
 * allocation per member that fits.
 */

import type { Timing } from "../candidates/filter.js";
import type { PlacementStack } from "../candidates/stack.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
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

function staticTallyOf(
  stack: PlacementStack,
  model: ClusterModel,
  request: PlacementRequest,
  time: Timing,
  passing: readonly MemberState[],
): RejectionTally {
  let tally = staticTallies.get(passing);
  if (tally === undefined) {
    tally = new RejectionTally();
    const admitted = new Set(passing);
    for (const member of model.allMembers()) {
      if (admitted.has(member)) continue;
      const why = stack.check(member, request, time);
      if (why !== undefined) tally.add(member.name, why);
    }
    staticTallies.set(passing, tally);
  }
  return tally;
}

/**
 * Explains a decided placement. `listed` names every candidate when the
 * decision listed them all (a scriptlet, a placement group or a dry run);
 * null when the default policy took the first without listing the rest,
 * and the walk counts them.
 */
export function explainPlacement(
  stack: PlacementStack,
  model: ClusterModel,
  request: PlacementRequest,
  time: Timing,
  listed: readonly string[] | null,
): PlacementExplanation {
  const passing = stack.staticCandidates(model, request);
  const tally = staticTallyOf(stack, model, request, time, passing).copy();
  const listedNames = listed === null ? null : new Set(listed);
  // Members that fit but a ranking may have turned down (a strict placement group): not listed, or
  // (the default policy listing none) every fitting member when a placement group ranks.
  const collect = listedNames !== null || request.groupPolicy !== null;
  const fitting: MemberState[] = [];
  const admits = stack.admitter(request);
  let fitCount = 0;
  for (let index = 0; index < passing.length; index++) {
    const member = passing[index]!;
    if (admits(member, time)) {
      fitCount += 1;
      if (collect && (listedNames === null || !listedNames.has(member.name))) fitting.push(member);
      continue;
    }
    const why = stack.check(member, request, time);
    if (why !== undefined) tally.add(member.name, why);
  }
  let candidateCount = listedNames === null ? fitCount : listedNames.size;
  if (fitting.length > 0) {
    const turnedDown = stack.turnedDownByRankings(model, request, fitting);
    for (const { member, rejection } of turnedDown) tally.add(member, rejection);
    if (listedNames === null) candidateCount -= turnedDown.length;
  }
  return { members: model.allMembers().length, candidateCount, rejections: tally.groups() };
}
