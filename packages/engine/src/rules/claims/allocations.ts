/**
 * Where each record sits and what it holds: its location is a provider
 * that exists, and every allocation row that is new or grew names a
 * provider that exists, with an inventory of the row's class whose unit
 * constraints (min_unit, max_unit, step_size) the amount meets. Rows may
 * name any provider, not only the record's location.
 */
import { unitViolation } from "@berth/resources";
import type { NewInstance } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import type { AllocationHolder } from "./consumption.js";
import { constraintsFailure, memberMissingFailure, noInventoryFailure } from "./failures.js";
import type { ProviderRows } from "./rows.js";

/** What the old version held of one class on one provider, over both ledgers. */
function heldBefore(old: AllocationHolder, provider: string, resourceClass: string): number {
  let total = 0;
  for (const row of old.allocations) {
    if (row.member === provider && row.resourceClass === resourceClass) total += row.amount;
  }
  return total;
}

export function checkAllocations(
  records: readonly NewInstance[],
  replaced: ReadonlyMap<string, InstanceRecord>,
  providers: ReadonlyMap<string, ProviderRows>,
): void {
  for (const record of records) {
    if (!providers.has(record.location)) throw memberMissingFailure(record.location);
    checkRows(record, replaced.get(record.id), providers);
  }
}

/**
 * The rows of one holder (instance or Placement consumer) against the
 * version it replaces: every row that is new or grew names a provider that
 * exists, with an inventory of its class whose unit constraints it meets.
 */
export function checkRows(
  holder: AllocationHolder,
  old: AllocationHolder | undefined,
  providers: ReadonlyMap<string, ProviderRows>,
): void {
  for (const row of holder.allocations) {
    if (row.amount === 0) continue;
    const provider = providers.get(row.member);
    if (provider === undefined) throw memberMissingFailure(row.member);
    // Only allocations that are new or grew must respect the inventory's
    // unit constraints; an unchanged one stays valid after an inventory edit.
    if (old !== undefined && row.amount <= heldBefore(old, row.member, row.resourceClass)) continue;
    const inventory = provider.inventories[row.resourceClass];
    if (inventory === undefined) throw noInventoryFailure(row.member, row.resourceClass);
    if (unitViolation(inventory, row.amount) !== undefined) throw constraintsFailure(row, inventory);
  }
}
