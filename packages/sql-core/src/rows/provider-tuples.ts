import {
  FAILOVER_CLASS,
  failoverOf,
  type Ledger,
  memberProviderUuid,
  type ProjectTotals,
  type ProviderRows,
  sharedLedgerRows,
} from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { listParam } from "../runner/lists.js";
import type { SqlRow, SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";
import type { SqlDialect } from "../schema/table-spec.js";

type InventoryTuple = [string, number, number, number, number, number, number];
type UsageTuple = [string, Ledger, number];
type MirroredTuple = [string, number];

/**
 * One member as a claim reads it (`readMemberProviders`): row id, name, inventories [class, total,
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

/**
 * `readMemberProviders`' statement, one per dialect (exported for
 * PostgreSQL's plan test). Each member is found through its unique index,
 * one wanted name at a time: in PostgreSQL a LATERAL subquery with LIMIT 1,
 * since a cached generic plan of a join scans every member.
 */
export function memberProvidersSql(dialect: SqlDialect): string {
  const json = jsonSql({ dialect });
  const list = (items: string[], from: string) => `(SELECT ${json.agg(json.array(items))} ${from})`;
  const [wanted, uuid] =
    dialect === "pg"
      ? [
          "jsonb_array_elements(CAST(? AS jsonb)) AS w CROSS JOIN LATERAL (SELECT id, name FROM members WHERE name = w->>0 LIMIT 1) AS m",
          "w->>1",
        ]
      : ["json_each(?) AS w JOIN members AS m ON m.name = w.value ->> 0", "w.value ->> 1"];
  const member = json.array([
    "m.id",
    "m.name",
    list(
      ["resource_class", "total", "reserved", "min_unit", "max_unit", "step_size", "allocation_ratio"],
      "FROM inventories WHERE member_id = m.id",
    ),
    list(["resource_class", "ledger", "amount"], "FROM usage WHERE member_id = m.id AND amount <> 0"),
    list(
      ["resource_class", "amount"],
      `FROM (SELECT resource_class, sum(amount) AS amount FROM consumer_allocations
             WHERE provider_uuid = ${uuid} GROUP BY resource_class HAVING sum(amount) <> 0) AS c`,
    ),
    list(
      ["(SELECT name FROM members WHERE id = i.member_id)", "a.amount"],
      `FROM instances AS i JOIN allocations AS a
         ON a.instance_id = i.id AND a.member_id = i.member_id AND a.resource_class = ?
       WHERE i.secondary_id = m.id`,
    ),
  ]);
  return `SELECT ${json.agg(member)} AS state FROM ${wanted}`;
}

const MEMBER_PROVIDERS_SQL = { sqlite: memberProvidersSql("sqlite"), pg: memberProvidersSql("pg") };

/**
 * The named members that exist (others skipped), read after the statement
 * that locked them where rows lock: inventories, non-zero usage of both
 * ledgers, their root providers' consumer sums and the memory of the
 * instances they mirror (`memberProviderRows`), with their row ids. One
 * JSON document: the drivers' per-row, per-column result objects cost more
 * than the lookups themselves on this hot path.
 */
export async function readMemberProviders(
  db: SqlRunner,
  names: readonly string[],
): Promise<{ rows: Map<string, ProviderRows>; ids: Map<string, number> }> {
  if (names.length === 0) return { rows: new Map(), ids: new Map() };
  const [row] = await db.all<{ state: unknown }>(MEMBER_PROVIDERS_SQL[db.dialect], [
    FAILOVER_CLASS,
    listParam(names.map((name) => [name, memberProviderUuid(name)])),
  ]);
  return memberProviderRows(jsonValue<MemberProviderTuple[]>(row?.state ?? "[]"));
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
