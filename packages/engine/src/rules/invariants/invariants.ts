/**
 * What a SQL store's `check()` reports, and how each suspicious row is
 * judged: the stores run the aggregates in their own dialect and hand the
 * rows here, so the texts and the capacity rule exist once. Placement
 * consumers' sums are judged here too (`consumerLedgerViolations`), a
 * member's root provider on the member's one ledger.
 */
import { type Inventory, inventoryCapacity } from "@berth/resources";
import { isMemberRoot } from "../ledger/shared-ledger.js";

/** The kinds of inconsistency `check()` looks for. */
export type ViolationKind =
  | "usage_mismatch"
  | "over_capacity"
  | "usage_without_inventory"
  | "project_usage_mismatch"
  | "orphan_row";

/** One inconsistency `check()` found. */
export interface Violation {
  /** What is wrong. */
  kind: ViolationKind;
  /** A sentence naming the member, class or project. */
  message: string;
  /** The numbers behind it (the row the store's aggregate read). */
  details: Record<string, unknown>;
}

/** What a Store's `check()` answers: ok when no violation was found. */
export interface CheckReport {
  /** True when `violations` is empty. */
  ok: boolean;
  /** Every inconsistency found. */
  violations: Violation[];
  /** How much was checked. */
  counts: {
    /** Cluster members checked. */
    members: number;
    /** Instances and reservations checked. */
    instances: number;
    /** Allocation rows (instances' and Placement consumers') checked. */
    allocations: number;
  };
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

/** Usage recorded on a member of a class it has no inventory of. */
export function usageWithoutInventory(row: Row): Violation {
  return {
    kind: "usage_without_inventory",
    message: `Member "${row.member}" has ${row.used} ${row.resourceClass} in use but no inventory of it`,
    details: row,
  };
}

/** A project's limit counters that differ from the sums over its instances. */
export function projectUsageMismatch(row: Row): Violation {
  return {
    kind: "project_usage_mismatch",
    message: `Limit counters of project "${row.project}" disagree with its instances`,
    details: row,
  };
}

/** What consumers hold of one class on one provider, with the provider's row (null: no such provider). */
export interface ConsumerSumRow {
  /** The provider's UUID, as the allocations name it. */
  provider: string;
  /** The resource class allocated. */
  resourceClass: string;
  /** The sum of the consumers' allocations of the class on the provider. */
  used: number;
  /** The provider's row, if it exists. */
  row: {
    /** The provider's name. */
    name: string;
    /** Its parent's UUID; null for a root provider. */
    parentUuid: string | null;
    /** Resource class -> the provider's inventory of it. */
    inventories: Record<string, Inventory>;
  } | null;
}

/** A member's instances' usage (both ledgers) of one class and its inventory of it, if any. */
export interface MemberClassRow {
  /** The member's name. */
  member: string;
  /** The resource class. */
  resourceClass: string;
  /** What the member's instances and reservations hold of the class (both ledgers). */
  instances: number;
  /** The member's inventory of the class; absent when it has none. */
  inventory?: Pick<Inventory, "total" | "reserved" | "allocationRatio"> & {
    /** Usage beyond capacity accepted when the inventory was set (0 when it fit), not reported as an overcommit. */
    grandfathered: number;
  };
}

/** A member's class as a store's aggregate reads it (numbers as the driver gives them; no inventory: null total). */
export function memberClassRowOf(row: {
  member: string;
  resourceClass: string;
  instances: unknown;
  total: unknown;
  reserved: unknown;
  allocationRatio: unknown;
  grandfathered: unknown;
}): MemberClassRow {
  const out: MemberClassRow = {
    member: row.member,
    resourceClass: row.resourceClass,
    instances: Number(row.instances),
  };
  if (row.total !== null && row.total !== undefined)
    out.inventory = {
      total: Number(row.total),
      reserved: Number(row.reserved),
      allocationRatio: Number(row.allocationRatio),
      grandfathered: Number(row.grandfathered),
    };
  return out;
}

/** The members whose root providers the consumer sums name: the stores read their classes. */
export function membersOfConsumerRows(rows: readonly ConsumerSumRow[]): string[] {
  const names = new Set<string>();
  for (const row of rows) {
    if (row.row !== null && row.row.parentUuid === null && isMemberRoot(row.provider, row.row.name))
      names.add(row.row.name);
  }
  return [...names];
}

/**
 * Judges Placement consumers' sums as claims promise them: every
 * allocation names a provider that exists; on a member's root the member's
 * instances and the consumers together stay within the member's capacity
 * (one ledger, shared-ledger.ts); on any other provider the consumers stay
 * within the provider's own inventories. `reported` are the violations the
 * member checks already found (not reported twice).
 */
export function consumerLedgerViolations(
  rows: readonly ConsumerSumRow[],
  members: readonly MemberClassRow[],
  reported: readonly Violation[],
): Violation[] {
  const out: Violation[] = [];
  const memberClasses = new Map(members.map((m) => [`${m.member}\u0000${m.resourceClass}`, m]));
  const already = new Set(
    reported.map((v) => `${v.kind}\u0000${String(v.details.member)}\u0000${String(v.details.resourceClass)}`),
  );
  const push = (violation: Violation | undefined) => {
    if (violation === undefined) return;
    const key = `${violation.kind}\u0000${String(violation.details.member)}\u0000${String(violation.details.resourceClass)}`;
    if (!already.has(key)) out.push(violation);
  };
  for (const row of rows) {
    if (row.used === 0) continue;
    if (row.row === null) {
      out.push({
        kind: "orphan_row",
        message: `Placement consumers hold ${row.used} ${row.resourceClass} on resource provider "${row.provider}", which does not exist`,
        details: { provider: row.provider, resourceClass: row.resourceClass, used: row.used },
      });
      continue;
    }
    const member = membersOfConsumerRows([row]).length > 0 ? row.row.name : undefined;
    if (member !== undefined) {
      const held = memberClasses.get(`${member}\u0000${row.resourceClass}`);
      const used = (held?.instances ?? 0) + row.used;
      if (held?.inventory === undefined)
        push(usageWithoutInventory({ member, resourceClass: row.resourceClass, used }));
      else if (used > held.inventory.grandfathered)
        push(overCapacity({ member, resourceClass: row.resourceClass, used, ...held.inventory }));
      continue;
    }
    const inventory = row.row.inventories[row.resourceClass];
    const provider = `resource provider "${row.provider}"`;
    if (inventory === undefined) {
      out.push({
        kind: "usage_without_inventory",
        message: `Placement consumers hold ${row.used} ${row.resourceClass} on ${provider}, which has no inventory of it`,
        details: { provider: row.provider, resourceClass: row.resourceClass, used: row.used },
      });
      continue;
    }
    const capacity = inventoryCapacity(inventory);
    if (row.used > capacity)
      out.push({
        kind: "over_capacity",
        message: `Placement consumers hold ${row.used} ${row.resourceClass} on ${provider}, over its capacity ${capacity}`,
        details: { provider: row.provider, resourceClass: row.resourceClass, used: row.used, capacity },
      });
  }
  return out;
}
