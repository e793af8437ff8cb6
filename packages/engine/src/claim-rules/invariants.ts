/**
 * What a SQL store's `check()` reports, and how each suspicious row is
 * judged: the stores run the aggregates in their own dialect and hand the
 * rows here, so the texts and the capacity rule exist once.
 */
import { inventoryCapacity } from "@berth/resources";

export type ViolationKind =
  | "usage_mismatch"
  | "over_capacity"
  | "usage_without_inventory"
  | "project_usage_mismatch"
  | "orphan_row";

export interface Violation {
  kind: ViolationKind;
  message: string;
  details: Record<string, unknown>;
}

export interface CheckReport {
  ok: boolean;
  violations: Violation[];
  counts: { members: number; instances: number; allocations: number };
}

type Row = Record<string, unknown>;

/** Recorded usage of a (member, class, ledger) that differs from its allocations' sum. */
export function usageMismatch(row: Row): Violation {
  return {
    kind: "usage_mismatch",
    message: `Usage of ${row.resourceClass} (${row.ledger}) on member "${row.member}" is ${row.recorded}, but its allocations sum to ${row.allocated}`,
    details: row,
  };
}

/**
 * Usage above the grandfathered amount: a violation only when it is also
 * above the inventory's capacity (Placement's formula), else undefined.
 */
export function overCapacity(row: Row): Violation | undefined {
  const capacity = inventoryCapacity({
    total: Number(row.total),
    reserved: Number(row.reserved),
    allocationRatio: Number(row.allocationRatio),
  });
  if (Number(row.used) <= capacity) return undefined;
  return {
    kind: "over_capacity",
    message: `Member "${row.member}" has ${row.used} ${row.resourceClass} in use, over its capacity ${capacity}`,
    details: {
      member: row.member,
      resourceClass: row.resourceClass,
      used: row.used,
      capacity,
      grandfathered: row.grandfathered,
    },
  };
}

export function usageWithoutInventory(row: Row): Violation {
  return {
    kind: "usage_without_inventory",
    message: `Member "${row.member}" has ${row.used} ${row.resourceClass} in use but no inventory of it`,
    details: row,
  };
}

export function projectUsageMismatch(row: Row): Violation {
  return {
    kind: "project_usage_mismatch",
    message: `Limit counters of project "${row.project}" disagree with its instances`,
    details: row,
  };
}
