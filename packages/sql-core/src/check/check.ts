import {
  type CheckReport,
  overCapacity,
  projectUsageMismatch,
  usageMismatch,
  usageWithoutInventory,
  type Violation,
} from "@berth/engine";
import type { SqlRunner } from "../runner/runner.js";
import { consumerViolations } from "./check-consumers.js";

/**
 * Verifies what every claim promises, on one consistent read (the caller's
 * transaction), with the aggregates inside the database so memory stays
 * flat however many rows:
 *  - allocations sum to the usage rows, per (member, class, ledger);
 *  - usage (both ledgers) is within capacity, except where an operator shrank
 *    the inventory below usage that was already there (never beyond that);
 *  - no usage of a class the member has no inventory of;
 *  - per-project limit counters (summed over PostgreSQL's shards) equal the
 *    sums over the project's instances;
 *  - Placement consumers' allocations name providers that exist and stay
 *    within capacity (check-consumers.ts);
 *  - in SQLite, no row refers to a missing row (`foreign_key_check`;
 *    PostgreSQL enforces every foreign key itself).
 * Sums are cast to bigint: PostgreSQL's sum of a bigint is a numeric, read as text.
 */
export async function checkInvariants(db: SqlRunner): Promise<CheckReport> {
  const violations: Violation[] = [];

  for (const row of await db.all(`
    SELECT m.name AS member, x.resource_class AS "resourceClass", x.ledger AS ledger,
           CAST(sum(x.allocated) AS bigint) AS allocated, CAST(sum(x.recorded) AS bigint) AS recorded
    FROM (
      SELECT member_id, resource_class, ledger, amount AS allocated, 0 AS recorded FROM allocations
      UNION ALL
      SELECT member_id, resource_class, ledger, 0, amount FROM usage
    ) AS x LEFT JOIN members AS m ON m.id = x.member_id
    GROUP BY x.member_id, m.name, x.resource_class, x.ledger
    HAVING sum(x.allocated) <> sum(x.recorded)`)) {
    violations.push(usageMismatch(row));
  }

  // Capacity is Placement's formula from @berth/resources, applied here rather
  // than written again in SQL; the database only sums (one row per member and
  // class in use, never per instance).
  for (const row of await db.all(`
    SELECT m.name AS member, u.resource_class AS "resourceClass", u.total AS used,
           i.total AS total, i.reserved AS reserved, i.allocation_ratio AS "allocationRatio",
           i.grandfathered_usage AS grandfathered
    FROM (SELECT member_id, resource_class, CAST(sum(amount) AS bigint) AS total
          FROM usage GROUP BY member_id, resource_class) AS u
    JOIN inventories AS i ON i.member_id = u.member_id AND i.resource_class = u.resource_class
    JOIN members AS m ON m.id = u.member_id
    WHERE u.total > i.grandfathered_usage`)) {
    const violation = overCapacity(row);
    if (violation !== undefined) violations.push(violation);
  }

  for (const row of await db.all(`
    SELECT m.name AS member, u.resource_class AS "resourceClass", CAST(sum(u.amount) AS bigint) AS used
    FROM usage AS u JOIN members AS m ON m.id = u.member_id
    LEFT JOIN inventories AS i ON i.member_id = u.member_id AND i.resource_class = u.resource_class
    WHERE i.member_id IS NULL
    GROUP BY u.member_id, m.name, u.resource_class
    HAVING sum(u.amount) <> 0`)) {
    violations.push(usageWithoutInventory(row));
  }

  for (const row of await db.all(`
    SELECT x.project AS project,
           CAST(sum(x.instances) AS bigint) AS instances, CAST(sum(x.recorded_instances) AS bigint) AS "recordedInstances",
           CAST(sum(x.cpu) AS bigint) AS cpu, CAST(sum(x.recorded_cpu) AS bigint) AS "recordedCpu",
           CAST(sum(x.memory) AS bigint) AS "memoryBytes", CAST(sum(x.recorded_memory) AS bigint) AS "recordedMemoryBytes",
           CAST(sum(x.disk) AS bigint) AS "diskBytes", CAST(sum(x.recorded_disk) AS bigint) AS "recordedDiskBytes",
           CAST(sum(x.containers) AS bigint) AS containers,
           CAST(sum(x.recorded_containers) AS bigint) AS "recordedContainers"
    FROM (
      SELECT project, count(*) AS instances, 0 AS recorded_instances, sum(limits_cpu) AS cpu, 0 AS recorded_cpu,
             sum(limits_memory_bytes) AS memory, 0 AS recorded_memory, sum(limits_disk_bytes) AS disk,
             0 AS recorded_disk, sum(CASE WHEN type = 'container' THEN 1 ELSE 0 END) AS containers,
             0 AS recorded_containers
      FROM instances GROUP BY project
      UNION ALL
      SELECT project, 0, instances, 0, cpu, 0, memory_bytes, 0, disk_bytes, 0, containers FROM project_usage
    ) AS x
    GROUP BY x.project
    HAVING sum(x.instances) <> sum(x.recorded_instances) OR sum(x.cpu) <> sum(x.recorded_cpu)
        OR sum(x.memory) <> sum(x.recorded_memory) OR sum(x.disk) <> sum(x.recorded_disk)
        OR sum(x.containers) <> sum(x.recorded_containers)`)) {
    violations.push(projectUsageMismatch(row));
  }

  violations.push(...(await consumerViolations(db, violations)));
  if (db.dialect === "sqlite") violations.push(...(await orphanRows(db)));

  const [counts] = await db.all(`
    SELECT (SELECT count(*) FROM members) AS members, (SELECT count(*) FROM instances) AS instances,
           (SELECT count(*) FROM allocations) AS allocations`);
  return {
    ok: violations.length === 0,
    violations,
    counts: {
      members: Number(counts?.members ?? 0),
      instances: Number(counts?.instances ?? 0),
      allocations: Number(counts?.allocations ?? 0),
    },
  };
}

async function orphanRows(db: SqlRunner): Promise<Violation[]> {
  return (await db.all("PRAGMA foreign_key_check")).map((row) => ({
    kind: "orphan_row",
    // WITHOUT ROWID tables (allocations, profile links) report no rowid.
    message: `${row.rowid === null ? "A row" : `Row ${row.rowid}`} of ${row.table} refers to a missing row of ${row.parent}`,
    details: row,
  }));
}
