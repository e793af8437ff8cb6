/**
 * How many more units of one demand a single member takes, one after
 * another, in closed form: per class, floor(((total - reserved) *
 * allocation_ratio - consumed) / amount), checked against Placement's own
 * rule (`checkFit`, which the capacity filter and every claim call) at the
 * boundary, so rounding of fractional allocation ratios can never make the
 * count disagree with the filter. A class the member itself lacks is taken
 * from its provider tree (model/member-tree.ts): each unit lands whole on
 * one child with room, so the tree takes the sum of what each child takes.
 */
import { checkFit, type Inventory, inventoryCapacity } from "@berth/resources";
import { type Demand, firstMisfit, firstMisfitInTree } from "../candidates/filters/capacity.js";
import type { MemberState } from "../model/member-state.js";

/** How many units a member takes, and the class (rejection code) that stops it. */
export interface MemberUnits {
  units: number;
  /** `capacity:CLASS` / `lack:CLASS` / `constraints:CLASS` (the capacity filter's codes); "" when unbounded. */
  limitedBy: string;
}

/** Units of `amount` that fit one after another on an inventory already holding `consumed`. */
export function unitsOfClass(
  resourceClass: string,
  inventory: Inventory,
  consumed: number,
  amount: number,
): number {
  const fits = (held: number) => checkFit(resourceClass, inventory, held, amount).ok;
  if (!fits(consumed)) return 0;
  if (amount <= 0) return Number.POSITIVE_INFINITY;
  let units = Math.max(1, Math.floor((inventoryCapacity(inventory) - consumed) / amount));
  // The formula's floating point (ratios like 1.1) may be one off either way: the rule decides.
  while (units > 1 && !fits(consumed + (units - 1) * amount)) units -= 1;
  while (fits(consumed + units * amount)) units += 1;
  return units;
}

/** Units of `amount` the children of `member`'s tree take (each unit whole on one child). */
function unitsInTree(member: MemberState, resourceClass: string, amount: number): number {
  const tree = member.tree;
  if (tree === undefined) return 0;
  let units = 0;
  for (const provider of tree.providers) {
    const inventory = provider.inventories[resourceClass];
    if (inventory === undefined) continue;
    units += unitsOfClass(resourceClass, inventory, tree.consumed(provider.uuid, resourceClass), amount);
  }
  return units;
}

/** The capacity filter's rejection of the first unit, when even that one does not fit. */
function firstUnitMisfit(member: MemberState, demand: Demand): string | undefined {
  const why =
    member.tree === undefined
      ? firstMisfit(member.inventories, member, demand)
      : firstMisfitInTree(member, member.tree, demand);
  return why?.code;
}

/** How many units of `demand` fit on `member` now, and which class runs out first. */
export function memberUnits(member: MemberState, demand: Demand): MemberUnits {
  const misfit = firstUnitMisfit(member, demand);
  if (misfit !== undefined) return { units: 0, limitedBy: misfit };
  let best: MemberUnits = { units: Number.POSITIVE_INFINITY, limitedBy: "" };
  for (const [resourceClass, amount] of demand) {
    const inventory = member.inventories[resourceClass];
    const units =
      inventory === undefined
        ? unitsInTree(member, resourceClass, amount)
        : unitsOfClass(resourceClass, inventory, member.consumed(resourceClass), amount);
    if (units < best.units) best = { units, limitedBy: `capacity:${resourceClass}` };
  }
  return best;
}

/**
 * The largest k for which k times `demand`, as ONE request, fits on
 * `member` now (at most `bound`): the unit count, lowered while a class's
 * min_unit/max_unit/step_size refuses the multiplied amount.
 */
export function largestMultipleOn(member: MemberState, demand: Demand, bound: number): number {
  let multiple = Math.min(memberUnits(member, demand).units, bound);
  if (!Number.isFinite(multiple)) return 0;
  const scaled = (k: number): Demand => demand.map(([resourceClass, amount]) => [resourceClass, amount * k]);
  while (multiple > 0 && firstUnitMisfit(member, scaled(multiple)) !== undefined) multiple -= 1;
  return multiple;
}
