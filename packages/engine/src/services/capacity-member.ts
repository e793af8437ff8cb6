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
  if (!checkFit(resourceClass, inventory, consumed, amount).ok) return 0;
  if (amount <= 0) return Number.POSITIVE_INFINITY;
  let units = Math.max(1, Math.floor((inventoryCapacity(inventory) - consumed) / amount));
  // The formula's floating point (ratios like 1.1) may be one off either way: the rule decides.
  while (units > 1 && !checkFit(resourceClass, inventory, consumed + (units - 1) * amount, amount).ok)
    units -= 1;
  while (checkFit(resourceClass, inventory, consumed + units * amount, amount).ok) units += 1;
  return units;
}

/** `capacity:CLASS`, built once per class (a count walks every member). */
const capacityCodes = new Map<string, string>();
function capacityCode(resourceClass: string): string {
  let code = capacityCodes.get(resourceClass);
  if (code === undefined) capacityCodes.set(resourceClass, (code = `capacity:${resourceClass}`));
  return code;
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
  let units = Number.POSITIVE_INFINITY;
  let limitedBy = "";
  for (let index = 0; index < demand.length; index++) {
    const [resourceClass, amount] = demand[index]!;
    const inventory = member.inventories[resourceClass];
    const classUnits =
      inventory === undefined
        ? unitsInTree(member, resourceClass, amount)
        : unitsOfClass(resourceClass, inventory, member.consumed(resourceClass), amount);
    if (classUnits < units) {
      units = classUnits;
      limitedBy = capacityCode(resourceClass);
    }
  }
  return { units, limitedBy };
}

/** The most times `amount` one provider of the class may take in one request (its max_unit). */
function maxUnitMultiple(member: MemberState, resourceClass: string, amount: number): number {
  if (amount <= 0) return Number.POSITIVE_INFINITY;
  const inventory = member.inventories[resourceClass];
  if (inventory !== undefined) return Math.floor(inventory.maxUnit / amount);
  let most = 0;
  for (const provider of member.tree?.providers ?? []) {
    const child = provider.inventories[resourceClass];
    if (child !== undefined) most = Math.max(most, Math.floor(child.maxUnit / amount));
  }
  return most;
}

/**
 * The largest k for which k times `demand`, as ONE request, fits on
 * `member` now, given that `units` of it fit one after another there (at
 * most `bound`): within every class's max_unit, then lowered while the
 * capacity filter still refuses it (a step_size, a tree whose room is
 * spread over several children).
 */
export function largestMultipleOn(member: MemberState, demand: Demand, units: number, bound: number): number {
  let multiple = Math.min(units, bound);
  for (const [resourceClass, amount] of demand)
    multiple = Math.min(multiple, maxUnitMultiple(member, resourceClass, amount));
  if (!Number.isFinite(multiple)) return 0;
  const scaled = (k: number): Demand => demand.map(([resourceClass, amount]) => [resourceClass, amount * k]);
  while (multiple > 0 && firstUnitMisfit(member, scaled(multiple)) !== undefined) multiple -= 1;
  return multiple;
}
