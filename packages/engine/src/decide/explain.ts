/**
 * Why the other members were not chosen, for a placement that succeeded:
 * how many members passed every filter, and every other member grouped by
 * the first reason it was turned down for. The decision record keeps it.
 *
 * Running every filter over every member costs ~0.15 ms at 1,000 members
 * and ~7 ms at 10,000, and even one pass over the static candidates
 * (~0.35 ms at 10,000) is too much for every placement. So the work is
 * split the way the stack's candidate cache splits it:
 * - members turned down by a static filter (evacuated, scheduler rules,
 *   groups, architecture, traits) are explained once per cached static
 *   candidate set, which lives until a member record changes;
 * - the usage filters' verdicts on the static candidates are kept per
 *   request shape and re-judged only for the members that changed
 *   (usage-verdicts.ts): a placement pays for the members the last
 *   placements touched, not for the cluster.
 * The answer is the one a walk over every member would give at the moment
 * of the decision, and the record keeps it as computed (nothing is
 * recomputed later from a model that has moved on).
 */

import type { Timing } from "../candidates/filter.js";
import type { PlacementStack } from "../candidates/stack.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { RejectionGroup } from "../store/records.js";
import { RejectionTally } from "./tally.js";
import { UsageVerdicts } from "./usage-verdicts.js";

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

/** The usage verdicts kept for one cached static candidate set, per request shape. */
interface SetVerdicts {
  positions: Map<MemberState, number>;
  byShape: Map<string, UsageVerdicts>;
}

const verdictsBySet = new WeakMap<readonly MemberState[], SetVerdicts>();
/** Request shapes are few in practice; the bound only guards against unbounded growth. */
const MAX_SHAPES = 64;

function usageVerdictsOf(
  stack: PlacementStack,
  request: PlacementRequest,
  passing: readonly MemberState[],
): UsageVerdicts {
  let forSet = verdictsBySet.get(passing);
  if (forSet === undefined) {
    const positions = new Map<MemberState, number>();
    for (let index = 0; index < passing.length; index++) positions.set(passing[index]!, index);
    forSet = { positions, byShape: new Map() };
    verdictsBySet.set(passing, forSet);
  }
  const shape = stack.usageKey(request);
  let verdicts = forSet.byShape.get(shape);
  if (verdicts === undefined) {
    if (forSet.byShape.size >= MAX_SHAPES) forSet.byShape.clear();
    verdicts = new UsageVerdicts(passing, forSet.positions);
    forSet.byShape.set(shape, verdicts);
  }
  return verdicts;
}

/**
 * The usage verdicts on `request`'s static candidates, brought up to `time`. A placement that
 * lists every candidate reads its fitting members here before ranking them, and its explanation
 * then finds them current.
 */
export function currentVerdicts(
  stack: PlacementStack,
  model: ClusterModel,
  request: PlacementRequest,
  time: Timing,
): UsageVerdicts {
  const verdicts = usageVerdictsOf(stack, request, stack.staticCandidates(model, request));
  verdicts.update(
    model.changes,
    stack.usageChecksFor(request),
    (member) => stack.check(member, request, time),
    time,
  );
  return verdicts;
}

/**
 * Explains a decided placement. `listed` names every candidate when the
 * decision listed them all (a scriptlet, a placement group or a dry run);
 * null when the default policy took the first without listing the rest,
 * and the kept verdicts count them.
 */
export function explainPlacement(
  stack: PlacementStack,
  model: ClusterModel,
  request: PlacementRequest,
  time: Timing,
  listed: readonly string[] | null,
): PlacementExplanation {
  const passing = stack.staticCandidates(model, request);
  const staticTally = staticTallyOf(stack, model, request, time, passing);
  const verdicts = currentVerdicts(stack, model, request, time);
  const turnsDown = stack.turnsDown(model, request);
  // The cached static tally is every placement's starting point: copied only when this one adds
  // to it (a usage filter or a ranking turned someone down), read as it is otherwise.
  const tally = verdicts.fitCount < passing.length || turnsDown ? staticTally.copy() : staticTally;
  verdicts.addTo(tally);
  let candidateCount = listed === null ? verdicts.fitCount : listed.length;
  // Members that fit but a ranking turned down (a strict placement group): the listed ones were
  // not, and the default policy, listing none, had every fitting member ranked.
  if (turnsDown) {
    const listedNames = listed === null ? null : new Set(listed);
    const fitting = verdicts
      .fitting()
      .filter((member) => listedNames === null || !listedNames.has(member.name));
    if (fitting.length > 0) {
      const turnedDown = stack.turnedDownByRankings(model, request, fitting);
      for (const { member, rejection } of turnedDown) tally.add(member, rejection);
      if (listedNames === null) candidateCount -= turnedDown.length;
    }
  }
  return { members: model.allMembers().length, candidateCount, rejections: tally.groups() };
}
