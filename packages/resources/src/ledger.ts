import { checkFit, FIT_OK, type FitVerdict, noInventory } from "./fit.js";
import type { Inventory } from "./inventory.js";
import { err, ok, type Result } from "./result.js";

/** Amounts per resource class, in each class's unit. */
export type ResourceAmounts = Readonly<Record<string, number>>;

/** A mutable per-class usage map, owned by whoever keeps the ledger. */
export type UsageMap = Record<string, number>;

/**
 * A member's two ledgers: what real instances use, and what reservations
 * (forthcoming instances) hold. Every new placement must fit with both
 * counted, so committing a reservation can never fail for capacity.
 */
export interface MemberUsage {
  readonly used: UsageMap;
  readonly forthcoming: UsageMap;
}

export type Ledger = "used" | "forthcoming";

export interface LedgerError {
  readonly kind: "usage-below-zero";
  readonly ledger: Ledger;
  readonly resource_class: string;
  readonly usage: number;
  readonly amount: number;
  readonly message: string;
}

export function emptyUsage(): MemberUsage {
  return { used: {}, forthcoming: {} };
}

/** Adds an allocation to one ledger, in place. */
export function addAllocation(usage: MemberUsage, ledger: Ledger, amounts: ResourceAmounts): void {
  const map = usage[ledger];
  for (const resourceClass in amounts) {
    map[resourceClass] = (map[resourceClass] ?? 0) + (amounts[resourceClass] as number);
  }
}

/**
 * Removes an allocation from one ledger, in place. Refused as a whole
 * (nothing changes) if any class would go below zero: that means the books
 * disagree with the allocation being removed. Classes reaching 0 are deleted.
 */
export function subtractAllocation(
  usage: MemberUsage,
  ledger: Ledger,
  amounts: ResourceAmounts,
): Result<void, LedgerError> {
  const map = usage[ledger];
  for (const resourceClass in amounts) {
    const current = map[resourceClass] ?? 0;
    const amount = amounts[resourceClass] as number;
    if (current - amount < 0) {
      return err({
        kind: "usage-below-zero",
        ledger,
        resource_class: resourceClass,
        usage: current,
        amount,
        message: `Cannot release ${amount} ${resourceClass} from the ${ledger} ledger: only ${current} is recorded`,
      });
    }
  }
  for (const resourceClass in amounts) {
    const remaining = (map[resourceClass] ?? 0) - (amounts[resourceClass] as number);
    if (remaining === 0) delete map[resourceClass];
    else map[resourceClass] = remaining;
  }
  return ok(undefined);
}

/** Turns a reservation into a real allocation: off `forthcoming`, onto `used`. */
export function commitForthcoming(usage: MemberUsage, amounts: ResourceAmounts): Result<void, LedgerError> {
  const released = subtractAllocation(usage, "forthcoming", amounts);
  if (!released.ok) return released;
  addAllocation(usage, "used", amounts);
  return released;
}

/** Real plus forthcoming usage of one class. */
export function combinedUsage(usage: MemberUsage, resourceClass: string): number {
  return (usage.used[resourceClass] ?? 0) + (usage.forthcoming[resourceClass] ?? 0);
}

/**
 * Does a whole request fit a member with both ledgers counted? Returns
 * FIT_OK or the first class that does not fit (in the request's key order).
 * Zero amounts ask for nothing and are skipped. Allocation-free when it fits.
 */
export function fitsWithBothLedgers(
  inventories: Readonly<Record<string, Inventory>>,
  usage: MemberUsage,
  request: ResourceAmounts,
): FitVerdict {
  for (const resourceClass in request) {
    const amount = request[resourceClass] as number;
    if (amount === 0) continue;
    const inventory = inventories[resourceClass];
    if (inventory === undefined) return noInventory(resourceClass, amount);
    const verdict = checkFit(resourceClass, inventory, combinedUsage(usage, resourceClass), amount);
    if (!verdict.ok) return verdict;
  }
  return FIT_OK;
}
