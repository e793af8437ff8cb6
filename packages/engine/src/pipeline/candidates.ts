/**
 * Candidate selection over the model. The usage-independent filters
 * (evacuated, scheduler rules, groups, architecture, traits) depend only on
 * the request's shape and on member records, so their result is cached per
 * shape in the model and reused until a member record changes; each
 * placement then only checks what moves: online (heartbeat age) and capacity.
 * Survivors are ordered as LXD/Incus do: fewest instances first
 * (reservations and in-flight placements included), ties in join order; the
 * placement group policy refines the order (or, strict, the set). Only when
 * nothing fits are all filters run over all members, to say why.
 */
import { checkFit } from "@berth/resources";
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { ClusterMemberStateView, ClusterMemberView } from "../scriptlet/port.js";
import type { PlacementContext } from "./context.js";
import {
  architectureFilter,
  CANDIDATE_FILTERS,
  type CandidateFilter,
  evacuatedFilter,
  excludedFilter,
  projectGroupsFilter,
  schedulerFilter,
  targetGroupFilter,
  traitsFilter,
} from "./filters.js";
import { applyPlacementGroup } from "./placement-groups.js";
import type { Rejection } from "./rejection.js";
import { memberView } from "./views.js";

export interface CandidateSet {
  candidates: MemberState[];
  /** Why each other member was turned down; filled only when no candidate is left. */
  rejected: { member: string; rejection: Rejection }[];
  /**
   * What findCandidates gathers in its walk over the candidates, so the
   * decision step need not walk them again; a set built by hand (a
   * rebalance move's single target) may leave it out.
   */
  listing?: CandidateListing;
}

export interface CandidateListing {
  /** The candidates' names, in order. */
  names: string[];
  /** The candidates as the scriptlet sees them, in order. */
  views: ClusterMemberView[];
  /** The candidate named `name`, if it is one. O(1); valid until the next set is listed on the same model. */
  candidate(name: string): MemberState | undefined;
  /** `candidate(name) !== undefined`. */
  isCandidate(name: string): boolean;
  /** The reported state of the candidate at `index` (what `get_cluster_member_state` of its name reads). */
  stateAt(index: number): ClusterMemberStateView;
}

/** Filters whose verdict does not depend on usage or time. */
export const STATIC_FILTERS: readonly CandidateFilter[] = [
  excludedFilter,
  evacuatedFilter,
  schedulerFilter,
  targetGroupFilter,
  projectGroupsFilter,
  architectureFilter,
  traitsFilter,
];

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
export function byLoad(members: readonly MemberState[]): MemberState[] {
  return [...members].sort((a, b) => a.load - b.load || a.record.joinOrder - b.record.joinOrder);
}

/**
 * `byLoad` for members already in join order (cached candidate sets are):
 * a stable counting sort on the load, O(members + load range) instead of
 * O(members log members) comparisons; ties keep join order by stability.
 * Falls back to the comparison sort when loads are spread too widely.
 * `loads` (each member's load, by position) spares re-reading every member
 * when the caller already has them.
 */
export function orderByLoad(inJoinOrder: readonly MemberState[], loads?: ArrayLike<number>): MemberState[] {
  const count = inJoinOrder.length;
  if (count < 2) return [...inJoinOrder];
  const loadOf = loads ?? Int32Array.from(inJoinOrder, (member) => member.load);
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < count; index++) {
    const load = loadOf[index]!;
    if (load < lowest) lowest = load;
    if (load > highest) highest = load;
  }
  const range = highest - lowest + 1;
  if (range > 4 * count + 64) return byLoad(inJoinOrder);
  const starts = new Int32Array(range + 1);
  for (let index = 0; index < count; index++) starts[loadOf[index]! - lowest + 1]! += 1;
  for (let bucket = 1; bucket <= range; bucket++) starts[bucket]! += starts[bucket - 1]!;
  const out = new Array<MemberState>(count);
  for (let index = 0; index < count; index++) {
    const bucket = loadOf[index]! - lowest;
    out[starts[bucket]!] = inJoinOrder[index]!;
    starts[bucket]! += 1;
  }
  return out;
}

function shapeKey(context: PlacementContext): string {
  const request = context.request;
  return JSON.stringify([
    context.project.name,
    context.targetGroup,
    context.allowedGroups,
    request.architectures,
    request.requiredTraits,
    request.forbiddenTraits,
    [...context.excluded].sort(),
  ]);
}

/** Members passing the usage-independent filters, in join order (cached per request shape). */
export function staticCandidates(model: ClusterModel, context: PlacementContext): readonly MemberState[] {
  return model.staticCandidates(shapeKey(context), () =>
    model.allMembers().filter((member) => firstRejection(member, context, STATIC_FILTERS) === undefined),
  );
}

export type Demand = readonly (readonly [string, number])[];

/** The request's amounts as an array, computed once per resources object (a bulk batch shares it). */
const demandCache = new WeakMap<Record<string, number>, Demand>();

/**
 * Demands by content: requests asking for the same amounts share one array,
 * so a member's remembered verdict (MemberState.knownFit, compared by
 * identity) serves every later request of that size.
 */
const sharedDemands = new Map<string, Demand>();
/** Request sizes are few in practice; the bound only guards against unbounded growth. */
const SHARED_DEMANDS_MAX = 1024;

export function demandOf(resources: Record<string, number>): Demand {
  let demand = demandCache.get(resources);
  if (demand === undefined) {
    const entries = Object.entries(resources);
    const key = JSON.stringify(entries);
    demand = sharedDemands.get(key);
    if (demand === undefined) {
      if (sharedDemands.size >= SHARED_DEMANDS_MAX) sharedDemands.clear();
      demand = entries;
      sharedDemands.set(key, demand);
    }
    demandCache.set(resources, demand);
  }
  return demand;
}

/** Placement's checkFit for every class of the demand (the verdict of `capacityFilter`). */
function hasRoom(member: MemberState, demand: Demand): boolean {
  for (let index = 0; index < demand.length; index++) {
    const [resourceClass, amount] = demand[index]!;
    const inventory = member.inventories[resourceClass];
    if (inventory === undefined) return false;
    if (!checkFit(resourceClass, inventory, member.consumed(resourceClass), amount).ok) return false;
  }
  return true;
}

/**
 * Online and room for the request: what changes between placements. The
 * same verdict as `capacityFilter`, without building a rejection: it runs
 * for every cached candidate of every scriptlet placement. The capacity
 * verdict is remembered per member until its inventories or consumption
 * change, so a placement re-checks only the members the last ones touched.
 */
export function fitsNow(member: MemberState, demand: Demand, context: PlacementContext): boolean {
  if (!member.isOnline(context.nowMs, context.offlineThresholdMs)) return false;
  const known = member.knownFit(demand);
  if (known !== undefined) return known;
  const ok = hasRoom(member, demand);
  member.rememberFit(demand, ok);
  return ok;
}

/** Every member's first rejection, for the "nothing fits" error (slow path, O(members x filters)). */
export function explainRejections(model: ClusterModel, context: PlacementContext): CandidateSet["rejected"] {
  const rejected: CandidateSet["rejected"] = [];
  for (const member of model.allMembers()) {
    const why = firstRejection(member, context, CANDIDATE_FILTERS);
    if (why !== undefined) rejected.push({ member: member.name, rejection: why });
  }
  return rejected;
}

export function findCandidates(model: ClusterModel, context: PlacementContext): CandidateSet {
  const demand = demandOf(context.request.resources);
  const members = staticCandidates(model, context);
  // One walk over the members: each one read here is not read again to sort.
  // Sized for the worst case up front: grown by push, the two arrays cost three times the
  // allocation (10,000 candidates per placement feed the young generation quickly enough).
  const feasible = new Array<MemberState>(members.length);
  const loads = new Int32Array(members.length);
  let count = 0;
  for (let index = 0; index < members.length; index++) {
    const member = members[index]!;
    if (!fitsNow(member, demand, context)) continue;
    feasible[count] = member;
    loads[count] = member.load;
    count += 1;
  }
  feasible.length = count;
  let candidates = orderByLoad(feasible, loads);
  let groupRejections: CandidateSet["rejected"] = [];
  if (context.placementGroup !== null) {
    const counts = model.groupCountsOf(context.placementGroup.project, context.placementGroup.name);
    const grouped = applyPlacementGroup(context.placementGroup, counts, candidates);
    candidates = grouped.kept;
    groupRejections = grouped.rejected;
  }
  const rejected = candidates.length > 0 ? [] : [...explainRejections(model, context), ...groupRejections];
  return listed(model, candidates, rejected, context);
}

/**
 * Candidate sets listed so far: each set's token. A number, not an object:
 * members live in the old generation, and a pointer from each of 10,000 of
 * them to a young token would be a write barrier and a remembered-set
 * entry apiece for the next scavenge.
 */
let listings = 0;

/** The state of a member that has not reported one (the scriptlet sees its fields' zero values). */
const NO_STATE: ClusterMemberStateView = Object.freeze({});

/**
 * Adds what the decision step reads of every candidate, gathered in one
 * walk: the names, the scriptlet views and an O(1) membership test. The
 * test marks the members (MemberState.candidacy) with a token of this set,
 * so it answers for the set most recently listed on the model: the
 * decision that follows it, before any other placement is planned.
 */
function listed(
  model: ClusterModel,
  candidates: MemberState[],
  rejected: CandidateSet["rejected"],
  clock: { nowMs: number; offlineThresholdMs: number },
): CandidateSet {
  // Wraps within the small-integer range (a member's stamp from a billion listings ago cannot matter).
  listings = listings >= 0x3fffffff ? 1 : listings + 1;
  const token = listings;
  const names = new Array<string>(candidates.length);
  const views = new Array<ClusterMemberView>(candidates.length);
  for (let index = 0; index < candidates.length; index++) {
    const member = candidates[index]!;
    names[index] = member.name;
    views[index] = memberView(member, clock.nowMs, clock.offlineThresholdMs);
    member.candidacy = token;
  }
  const candidate = (name: string): MemberState | undefined => {
    const member = model.member(name);
    return member?.candidacy === token ? member : undefined;
  };
  const isCandidate = (name: string): boolean => candidate(name) !== undefined;
  // Gathered for all candidates at the first request: a scriptlet that asks
  // for one state asks for all of them, and one tight loop overlaps the
  // cache misses of 10,000 records that one-by-one requests pay in turn.
  let states: ClusterMemberStateView[] | undefined;
  const stateAt = (index: number): ClusterMemberStateView => {
    if (states === undefined) {
      states = new Array<ClusterMemberStateView>(candidates.length);
      for (let at = 0; at < candidates.length; at++) {
        states[at] = (candidates[at]!.record.state ?? NO_STATE) as ClusterMemberStateView;
      }
    }
    return states[index] ?? NO_STATE;
  };
  return { candidates, rejected, listing: { names, views, candidate, isCandidate, stateAt } };
}

/**
 * The default policy's pick without sorting: the first member in join order
 * with the lowest load that is online and has room.
 *
 * A full scan is O(members). The model's scan hint makes repeated picks
 * (a bulk create, a stream of creates) O(1) amortized: while no load has
 * shrunk since the last full scan, no member is below the `floor` load seen
 * then, and the members before `cursor` are above it, so the first member
 * from `cursor` on that sits exactly at the floor and fits is the answer.
 * When none does, a full scan decides and refreshes the hint.
 */
export function leastLoadedCandidate(
  model: ClusterModel,
  context: PlacementContext,
): MemberState | undefined {
  const members = staticCandidates(model, context);
  const demand = demandOf(context.request.resources);
  const hint = model.scanHint(members);
  if (hint.floor >= 0) {
    const floor = hint.floor;
    let cursor = hint.cursor;
    let skippedAtFloor = false;
    for (let index = cursor; index < members.length; index++) {
      const member = members[index]!;
      const load = member.load;
      if (load > floor) {
        if (!skippedAtFloor) cursor = index + 1;
        continue;
      }
      // Below the floor would mean a load shrank unnoticed: trust only a full scan.
      if (load < floor) break;
      if (fitsNow(member, demand, context)) {
        hint.cursor = cursor;
        return member;
      }
      skippedAtFloor = true;
    }
  }
  let best: MemberState | undefined;
  let lowest = Number.POSITIVE_INFINITY;
  let firstAtLowest = 0;
  for (let index = 0; index < members.length; index++) {
    const member = members[index]!;
    const load = member.load;
    if (load < lowest) {
      lowest = load;
      firstAtLowest = index;
    }
    if (best !== undefined && load >= best.load) continue;
    if (fitsNow(member, demand, context)) best = member;
  }
  hint.floor = members.length === 0 ? -1 : lowest;
  hint.cursor = firstAtLowest;
  return best;
}
