/**
 * Every requested class fits, per Placement's formula (`checkFit` of
 * @berth/resources), with both ledgers and in-flight placements counted.
 */
import { capacityReportHint, checkFit, type FitFailure, type Inventory, noInventory } from "@berth/resources";
import type { ExpandedRequest } from "../../expand/expand.js";
import { resourcesOn } from "../../expand/member-demand.js";
import type { MemberState } from "../../model/member-state.js";
import type { MemberTree } from "../../model/member-tree.js";
import { type UsageCheck, usageFilter } from "../filter.js";
import { type Rejection, rejection } from "../rejection.js";

/** A request's amounts as an array. */
export type Demand = readonly (readonly [string, number])[];

/** The demand of a resources object, computed once per object (a bulk batch shares it). */
const demandCache = new WeakMap<Readonly<Record<string, number>>, Demand>();

/**
 * Demands by content: requests asking for the same amounts share one array,
 * so a member's remembered verdict (MemberState.knownFit, compared by
 * identity) serves every later request of that size.
 */
const sharedDemands = new Map<string, Demand>();
/** Request sizes are few in practice; the bound only guards against unbounded growth. */
const SHARED_DEMANDS_MAX = 1024;

export function demandOf(resources: Readonly<Record<string, number>>): Demand {
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

/** What already counts against each class: a MemberState (its ledgers and in-flight placements), or a rebalance plan's simulated usage. */
export interface Consumption {
  consumed(resourceClass: string): number;
}

/** The rejection for one class that does not fit, by why. */
function misfitRejection(verdict: FitFailure, amount: number): Rejection {
  const resourceClass = verdict.resource_class;
  switch (verdict.kind) {
    case "no-inventory": {
      // A standard class missing means the member never reported it: say which report field sizes it.
      const hint = capacityReportHint(resourceClass);
      const lack = hint === undefined ? resourceClass : `${resourceClass} (${hint})`;
      return rejection(`lack:${resourceClass}`, `lacks ${lack}`, `lack ${lack}`, true);
    }
    case "exceeds-capacity":
      return rejection(
        `capacity:${resourceClass}`,
        `has too little ${resourceClass}`,
        `have too little ${resourceClass}`,
        true,
      );
    default:
      return rejection(
        `constraints:${resourceClass}`,
        `can't take ${amount} ${resourceClass} (inventory constraints)`,
        `can't take ${amount} ${resourceClass} (inventory constraints)`,
        true,
      );
  }
}

/** The first class of `demand` that does not fit, and why; undefined when all fit. */
export function firstMisfit(
  inventories: Readonly<Record<string, Inventory>>,
  usage: Consumption,
  demand: Demand,
): Rejection | undefined {
  for (let index = 0; index < demand.length; index++) {
    const [resourceClass, amount] = demand[index]!;
    const inventory = inventories[resourceClass];
    const verdict =
      inventory === undefined
        ? noInventory(resourceClass, amount)
        : checkFit(resourceClass, inventory, usage.consumed(resourceClass), amount);
    if (!verdict.ok) return misfitRejection(verdict, amount);
  }
  return undefined;
}

/**
 * `firstMisfit` on a member with a provider tree: a class the member has
 * no inventory of is looked for among its child providers (model/member-tree.ts).
 */
export function firstMisfitInTree(
  member: MemberState,
  tree: MemberTree,
  demand: Demand,
): Rejection | undefined {
  for (let index = 0; index < demand.length; index++) {
    const [resourceClass, amount] = demand[index]!;
    const inventory = member.inventories[resourceClass];
    if (inventory === undefined) {
      const choice = tree.choose(resourceClass, amount);
      if ("refusal" in choice) return misfitRejection(choice.refusal, amount);
      continue;
    }
    const verdict = checkFit(resourceClass, inventory, member.consumed(resourceClass), amount);
    if (!verdict.ok) return misfitRejection(verdict, amount);
  }
  return undefined;
}

/** The first misfit of `demand` on a member, its tree included. */
function memberMisfit(member: MemberState, demand: Demand): Rejection | undefined {
  return member.tree === undefined
    ? firstMisfit(member.inventories, member, demand)
    : firstMisfitInTree(member, member.tree, demand);
}

/** `firstMisfit(...) === undefined`, without building a rejection. */
export function fitsAll(
  inventories: Readonly<Record<string, Inventory>>,
  usage: Consumption,
  demand: Demand,
): boolean {
  for (let index = 0; index < demand.length; index++) {
    const [resourceClass, amount] = demand[index]!;
    const inventory = inventories[resourceClass];
    if (inventory === undefined) return false;
    if (!checkFit(resourceClass, inventory, usage.consumed(resourceClass), amount).ok) return false;
  }
  return true;
}

/** A tree's usage moves without the member's (its children's holds and consumers). */
function movesWithTree(member: MemberState): boolean {
  return member.tree !== undefined;
}

/**
 * One placement's capacity check. `admits` runs for every cached candidate
 * of every placement, so its verdict is remembered per member until the
 * member's inventories or consumption change: a placement then re-checks
 * only the members the last ones touched.
 */
class CapacityCheck implements UsageCheck {
  constructor(private readonly demand: Demand) {}

  admits(member: MemberState): boolean {
    // A tree's usage moves without the member's: its verdict is never remembered.
    if (member.tree !== undefined) return firstMisfitInTree(member, member.tree, this.demand) === undefined;
    const known = member.knownFit(this.demand);
    if (known !== undefined) return known;
    const ok = fitsAll(member.inventories, member, this.demand);
    member.rememberFit(this.demand, ok);
    return ok;
  }

  reject(member: MemberState): Rejection | undefined {
    return memberMisfit(member, this.demand);
  }

  readonly movesAlone = movesWithTree;
}

/**
 * The capacity check of a request whose memory is a share of each
 * member's memory (`limits.memory: 50%`): each member is judged on the
 * amounts resolved against its own memory (expand/member-demand.ts).
 */
class MemberDemandCheck implements UsageCheck {
  constructor(private readonly request: Pick<ExpandedRequest, "resources" | "memoryShare">) {}

  private demandOn(member: MemberState): Demand {
    return demandOf(resourcesOn(this.request, member.record));
  }

  admits(member: MemberState): boolean {
    const demand = this.demandOn(member);
    if (member.tree !== undefined) return firstMisfitInTree(member, member.tree, demand) === undefined;
    const known = member.knownFit(demand);
    if (known !== undefined) return known;
    const ok = fitsAll(member.inventories, member, demand);
    member.rememberFit(demand, ok);
    return ok;
  }

  reject(member: MemberState): Rejection | undefined {
    return memberMisfit(member, this.demandOn(member));
  }

  readonly movesAlone = movesWithTree;
}

export const capacityFilter = usageFilter({
  name: "capacity",
  reads: { request: ["resources", "memoryShare"] },
  bind: (request) =>
    request.memoryShare?.requested === true
      ? new MemberDemandCheck({ resources: request.resources, memoryShare: request.memoryShare })
      : new CapacityCheck(demandOf(request.resources)),
});
