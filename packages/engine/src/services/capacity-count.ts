/**
 * How many more instances of one request the cluster takes now, one after
 * another, by the placement stack itself: its feasibility filters say which
 * members may take any (everything but capacity: online, evacuated,
 * scheduler.instance, target and project groups, architecture, traits), the
 * capacity rule counts each member's units in closed form
 * (capacity-member.ts), and the project's limits bound the total
 * (capacity-project.ts).
 *
 * The sum of the members' units is the answer whenever each create lands
 * independently of the others. When it does not (a ranking may turn
 * members down as instances land: a strict placement group; or a project
 * limit stops the total before every member is full, so the default order
 * decides who gets the units), the creates are played one after another
 * through the stack: each unit is decided by `stack.candidates` exactly as
 * a create is, and held in the model as an in-flight placement so the next
 * decision sees it. The loop is synchronous (nothing else plans or claims
 * in between) and every hold is given back before it returns, so no other
 * placement ever sees them.
 */
import { invalid, notFound } from "../base/errors.js";
import type { Timing, UsageCheck } from "../candidates/filter.js";
import { capacityFilter, type Demand, demandOf } from "../candidates/filters/capacity.js";
import { pendingOf } from "../claim/draft.js";
import type { PlanContext } from "../decide/context.js";
import { resourcesOn } from "../expand/member-demand.js";
import type { PlacementRequest } from "../expand/request.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import { childrenFor } from "../model/member-tree.js";
import { memberUnits } from "./capacity-member.js";
import { type ProjectRoom, projectRoom } from "./capacity-project.js";

/** One member's share of the answer. */
export interface MemberCapacity {
  /** The member's name. */
  member: string;
  /** How many more instances of the shape it takes. */
  instances: number;
  /**
   * What stops it there: a capacity code (`capacity:MEMORY_MB`, `lack:CUSTOM_FPGA`), a filter's
   * rejection code (`offline`, `scheduler-manual`, `group:NAME`...), a placement group's
   * (`spread:NAME`), or a project limit's key (`limits.instances`).
   */
  limitedBy: string;
}

/** How many more creates of one shape fit now, on which members, and what stops them. */
export interface CapacityCount {
  /** How many more instances of the shape fit in all (within the project's limits). */
  instances: number;
  /** What stops the total: the project limit that binds, else the most common member reason. */
  limitedBy: string;
  /** Every member, in join order. */
  members: MemberCapacity[];
  /** The project's limits and the room each leaves. */
  project: ProjectRoom;
  /** "closed-form": summed per member; "simulation": played one create after another. */
  countedBy: "closed-form" | "simulation";
}

/** More units than any real cluster takes: a request asking for nothing would loop for ever. */
const MOST_SIMULATED = 1_000_000;

const SKIP_CAPACITY: ReadonlySet<string> = new Set([capacityFilter.name]);

/** The demand `request` makes of `member` (its memory share resolved there). */
export function demandOn(request: PlacementRequest, member: MemberState): Demand {
  return demandOf(resourcesOn(request, member.record));
}

/** The stack's usage filters other than capacity, bound to `request` (capacity is counted, not checked). */
function otherUsageChecks(context: PlanContext, request: PlacementRequest): UsageCheck[] {
  const checks: UsageCheck[] = [];
  for (const filter of context.stack.filters) {
    if (filter.kind === "usage" && filter.name !== capacityFilter.name) checks.push(filter.bind(request));
  }
  return checks;
}

/** Each member (join order, or the one a target names) with the units it takes and what stops it there. */
export interface MemberUnitsTable {
  readonly members: readonly MemberState[];
  readonly units: readonly number[];
  readonly limitedBy: readonly string[];
}

/** Units per member; members a filter turns down get 0 and its rejection code. */
export function unitsPerMember(
  context: PlanContext,
  request: PlacementRequest,
  time: Timing,
): MemberUnitsTable {
  const { model, stack } = context;
  const target = request.target;
  let members: readonly MemberState[];
  let admitted: ReadonlySet<MemberState>;
  if (target?.kind === "member") {
    const member = model.member(target.name);
    if (member === undefined) throw notFound(`Cluster member "${target.name}" not found`);
    members = [member];
    admitted = new Set<MemberState>();
  } else {
    members = model.allMembers();
    admitted = new Set(stack.staticCandidates(model, request));
  }
  const checks = otherUsageChecks(context, request);
  const units = new Array<number>(members.length);
  const limitedBy = new Array<string>(members.length);
  for (let index = 0; index < members.length; index++) {
    const member = members[index]!;
    let passes = admitted.has(member);
    for (let check = 0; passes && check < checks.length; check++)
      passes = checks[check]!.admits(member, time);
    // A member the fast path did not admit (or a named one) says why through the stack's own check.
    const why = passes ? undefined : stack.check(member, request, time, SKIP_CAPACITY)?.code;
    const one =
      why === undefined ? memberUnits(member, demandOn(request, member)) : { units: 0, limitedBy: why };
    units[index] = one.units;
    limitedBy[index] = one.limitedBy;
  }
  return { members, units, limitedBy };
}

/** The reason most members give (what the total runs out of). */
function mostCommon(members: readonly MemberCapacity[]): string {
  const counts = new Map<string, number>();
  let best = "";
  let bestCount = 0;
  for (const { limitedBy } of members) {
    const count = (counts.get(limitedBy) ?? 0) + 1;
    counts.set(limitedBy, count);
    if (count > bestCount) {
      best = limitedBy;
      bestCount = count;
    }
  }
  return best;
}

function unbounded(request: PlacementRequest): never {
  throw invalid(
    `Instance "${request.name}" asks for no resource and nothing else bounds how many fit: capacity cannot count it`,
  );
}

function isStrictSpread(request: PlacementRequest): boolean {
  return request.groupPolicy?.policy === "spread" && request.groupPolicy.rigor === "strict";
}

/**
 * Plays creates of `request` one after another through the stack (see the
 * file comment), at most `cap`; answers how many each member took and, for
 * those left with room, why the stack stopped giving them any.
 */
function simulate(
  context: PlanContext,
  request: PlacementRequest,
  table: MemberUnitsTable,
  room: ProjectRoom,
  time: Timing,
): MemberCapacity[] {
  const { model, stack } = context;
  const holds: PendingPlacement[] = [];
  const placed = new Map<MemberState, number>();
  const hold = (chosen: MemberState) => {
    const children = childrenFor(chosen, resourcesOn(request, chosen.record));
    const pending = pendingOf(request, chosen.record, children);
    model.addPending(pending);
    holds.push(pending);
    placed.set(chosen, (placed.get(chosen) ?? 0) + 1);
  };
  try {
    if (isStrictSpread(request)) {
      // A strict spread unit turns its member (and whatever shares the group's count with it)
      // down and moves no other member's rank: the creates take the ranked candidates in
      // order, each if the group still admits it when its turn comes. One ranking, not one per unit.
      for (const member of stack.candidates(model, request, time, "all").candidates) {
        if (holds.length >= room.cap) break;
        if (stack.turnedDownByRankings(model, request, [member]).length === 0) hold(member);
      }
    } else {
      while (holds.length < room.cap) {
        if (holds.length >= MOST_SIMULATED) unbounded(request);
        const chosen = stack.candidates(model, request, time, "first").candidates[0];
        if (chosen === undefined) break;
        hold(chosen);
      }
    }
    // Why members with room left got no more: read while the holds still stand.
    const capReached = holds.length >= room.cap;
    const { members, units, limitedBy } = table;
    const withRoom = members.filter((member, index) => (placed.get(member) ?? 0) < units[index]!);
    const turnedDown = new Map(
      stack
        .turnedDownByRankings(model, request, withRoom)
        .map(({ member, rejection }) => [member, rejection.code]),
    );
    return members.map((member, index) => {
      const instances = placed.get(member) ?? 0;
      const why =
        instances >= units[index]!
          ? limitedBy[index]!
          : (turnedDown.get(member.name) ?? (capReached ? room.limitedBy : limitedBy[index]!));
      return { member: member.name, instances, limitedBy: why };
    });
  } finally {
    for (const pending of holds) model.releasePending(pending);
  }
}

/** What a count starts from: the clock it judged by, each member's units, the project's room. */
export interface Measured {
  time: Timing;
  units: MemberUnitsTable;
  room: ProjectRoom;
}

/** Each member's units and the project's room for `request`, now. */
export function measure(context: PlanContext, request: PlacementRequest): Measured {
  const time = context.timing();
  const room = projectRoom(context.model, request);
  return { time, units: unitsPerMember(context, request, time), room };
}

/** How many more of `request` fit now, per member and in all (see the file comment). */
export function countCapacity(
  context: PlanContext,
  request: PlacementRequest,
  { time, units, room }: Measured = measure(context, request),
): CapacityCount {
  let sum = 0;
  for (const one of units.units) sum += one;
  const turnsDown = request.target?.kind !== "member" && context.stack.turnsDown(context.model, request);
  if (room.cap === 0 || (!turnsDown && sum <= room.cap)) {
    if (!Number.isFinite(sum) && room.cap !== 0) unbounded(request);
    const none = room.cap === 0;
    const members = units.members.map((member, index) => ({
      member: member.name,
      instances: none ? 0 : units.units[index]!,
      limitedBy: none ? room.limitedBy : units.limitedBy[index]!,
    }));
    const limitedBy = none || sum === room.cap ? room.limitedBy : mostCommon(members);
    return { instances: none ? 0 : sum, limitedBy, members, project: room, countedBy: "closed-form" };
  }
  if (request.target?.kind === "member") {
    // One member, no ranking: the project's cap is all that can stop it earlier.
    const instances = Math.min(units.units[0]!, room.cap);
    const limitedBy = instances < units.units[0]! ? room.limitedBy : units.limitedBy[0]!;
    return {
      instances,
      limitedBy,
      members: [{ member: units.members[0]!.name, instances, limitedBy }],
      project: room,
      countedBy: "closed-form",
    };
  }
  const members = simulate(context, request, units, room, time);
  const instances = members.reduce((total, one) => total + one.instances, 0);
  const limitedBy = instances >= room.cap ? room.limitedBy : mostCommon(members);
  return { instances, limitedBy, members, project: room, countedBy: "simulation" };
}
