/**
 * How a claim changes consumption: per (provider, class), per ledger, the
 * removed instances' rows taken away and the new versions' rows added.
 * Capacity is checked on it, and Stores write it to their usage rows.
 */
import type { AllocationRow } from "../../store/records.js";

/**
 * Anything that holds allocation rows: an instance (whose `location` is
 * touched even when it holds nothing) or a Placement consumer.
 */
export interface AllocationHolder {
  readonly location?: string;
  readonly allocations: readonly AllocationRow[];
}

export interface ClassChange {
  readonly provider: string;
  readonly resourceClass: string;
  /** Change of the "used" ledger (instances). */
  used: number;
  /** Change of the "forthcoming" ledger (reservations). */
  forthcoming: number;
}

export interface ConsumptionChanges {
  /** By (provider, class), in the order first met: removed rows, then new ones. */
  readonly byClass: Map<string, ClassChange>;
  /** Providers the claim touches: every removed row's, each new record's location and its non-zero rows'. */
  readonly touched: Set<string>;
}

export function consumptionChanges(
  removed: readonly AllocationHolder[],
  added: readonly AllocationHolder[],
): ConsumptionChanges {
  const byClass = new Map<string, ClassChange>();
  const touched = new Set<string>();
  const count = (row: AllocationRow, sign: number) => {
    touched.add(row.member);
    const key = `${row.member}\u0000${row.resourceClass}`;
    let change = byClass.get(key);
    if (change === undefined) {
      change = { provider: row.member, resourceClass: row.resourceClass, used: 0, forthcoming: 0 };
      byClass.set(key, change);
    }
    change[row.ledger] += sign * row.amount;
  };
  for (const old of removed) for (const row of old.allocations) count(row, -1);
  for (const record of added) {
    if (record.location !== undefined) touched.add(record.location);
    for (const row of record.allocations) if (row.amount !== 0) count(row, 1);
  }
  return { byClass, touched };
}
