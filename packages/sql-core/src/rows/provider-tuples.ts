import {
  failoverOf,
  type Ledger,
  type ProjectTotals,
  type ProviderRows,
  sharedLedgerRows,
} from "@berth/engine";
import type { SqlRow } from "../runner/runner.js";

type InventoryTuple = [string, number, number, number, number, number, number];
type UsageTuple = [string, Ledger, number];
type MirroredTuple = [string, number];

/**
 * One member as a claim reads it (each adapter builds these tuples in one
 * JSON document on its hot path): row id, name, inventories [class, total,
 * reserved, min, max, step, ratio], non-zero usage [class, ledger, amount],
 * its root provider's consumer sums [class, amount], and the memory of the
 * instances it mirrors [primary, amount].
 */
export type MemberProviderTuple = [
  number,
  string,
  InventoryTuple[],
  UsageTuple[],
  [string, number][],
  MirroredTuple[],
];

/**
 * The claim rules' view of members (engine `ProviderRows`): "used" counts
 * their root providers' Placement consumers too (one ledger, engine
 * `sharedLedgerRows`), with the memory of the instances mirrored on each,
 * summed per primary (N+1); and their row ids.
 */
export function memberProviderRows(members: readonly MemberProviderTuple[]): {
  rows: Map<string, ProviderRows>;
  ids: Map<string, number>;
} {
  const rows = new Map<string, ProviderRows>();
  const ids = new Map<string, number>();
  for (const [id, name, inventoryRows, usageRows, consumerRows, mirroredRows] of members) {
    ids.set(name, id);
    const provider = {
      inventories: {} as Record<string, ProviderRows["inventories"][string]>,
      used: {} as Record<string, number>,
      forthcoming: {} as Record<string, number>,
    };
    for (const [resourceClass, total, reserved, minUnit, maxUnit, stepSize, allocationRatio] of inventoryRows)
      provider.inventories[resourceClass] = { total, reserved, minUnit, maxUnit, stepSize, allocationRatio };
    for (const [resourceClass, ledger, amount] of usageRows) provider[ledger][resourceClass] = Number(amount);
    const shared = sharedLedgerRows(
      provider,
      Object.fromEntries(consumerRows.map(([resourceClass, amount]) => [resourceClass, Number(amount)])),
    );
    const failover = failoverOf(mirroredRows);
    rows.set(name, failover === undefined ? shared : { ...shared, failover });
  }
  return { rows, ids };
}

/** A project's limit counters from a `project_usage` row (or PostgreSQL's sum of its shards). */
export function projectTotalsOf(row: SqlRow): ProjectTotals {
  return {
    instances: Number(row.instances),
    containers: Number(row.containers),
    virtualMachines: Number(row.virtual_machines),
    cpu: Number(row.cpu),
    memoryBytes: Number(row.memory_bytes),
    diskBytes: Number(row.disk_bytes),
  };
}

/** A project's limit counter changes in `project_usage` column order (instances ... disk_bytes). */
export function projectTotalsValues(t: ProjectTotals): number[] {
  return [t.instances, t.containers, t.virtualMachines, t.cpu, t.memoryBytes, t.diskBytes];
}
