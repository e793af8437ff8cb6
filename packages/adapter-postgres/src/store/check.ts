/**
 * Verifies what every claim promises, on one consistent read (a
 * repeatable-read transaction), with aggregates inside PostgreSQL:
 *  - allocations sum to the usage rows, per (member, class, ledger);
 *  - usage (both ledgers) is within capacity, except where an operator
 *    shrank the inventory below usage that was already there;
 *  - no usage of a class the member has no inventory of;
 *  - per-project limit counters (summed over their shards) equal the sums
 *    over the project's instances;
 *  - Placement consumers' allocations name providers that exist and stay
 *    within capacity: a member's root on the member's one ledger, with its
 *    instances (check-consumers.ts).
 * Rows referring to missing rows cannot exist: every reference is a
 * foreign key PostgreSQL enforces. Same report shape as the SQLite store's.
 */
import {
  type CheckReport,
  overCapacity,
  projectUsageMismatch,
  usageMismatch,
  usageWithoutInventory,
  type Violation,
} from "@berth/engine";
import type { Tx } from "../connection/pools.js";
import { consumerViolations } from "./check-consumers.js";

export async function checkInvariants(tx: Tx): Promise<CheckReport> {
  const violations: Violation[] = [];
  for (const row of await tx.rows(`
    SELECT m.name AS member, x.resource_class AS "resourceClass", x.ledger AS ledger,
           sum(x.allocated)::bigint AS allocated, sum(x.recorded)::bigint AS recorded
    FROM (
      SELECT member_id, resource_class, ledger, amount AS allocated, 0 AS recorded FROM allocations
      UNION ALL
      SELECT member_id, resource_class, ledger, 0, amount FROM usage
    ) AS x LEFT JOIN members AS m ON m.id = x.member_id
    GROUP BY x.member_id, m.name, x.resource_class, x.ledger
    HAVING sum(x.allocated) <> sum(x.recorded)`)) {
    violations.push(usageMismatch(row));
  }
  for (const row of await tx.rows(`
    SELECT m.name AS member, u.resource_class AS "resourceClass", u.total AS used,
           i.total AS total, i.reserved AS reserved, i.allocation_ratio AS "allocationRatio",
           i.grandfathered_usage AS grandfathered
    FROM (SELECT member_id, resource_class, sum(amount)::bigint AS total FROM usage GROUP BY member_id, resource_class) AS u
    JOIN inventories AS i ON i.member_id = u.member_id AND i.resource_class = u.resource_class
    JOIN members AS m ON m.id = u.member_id
    WHERE u.total > i.grandfathered_usage`)) {
    const violation = overCapacity(row);
    if (violation !== undefined) violations.push(violation);
  }
  for (const row of await tx.rows(`
    SELECT m.name AS member, u.resource_class AS "resourceClass", sum(u.amount)::bigint AS used
    FROM usage AS u JOIN members AS m ON m.id = u.member_id
    LEFT JOIN inventories AS i ON i.member_id = u.member_id AND i.resource_class = u.resource_class
    WHERE i.member_id IS NULL
    GROUP BY u.member_id, m.name, u.resource_class
    HAVING sum(u.amount) <> 0`)) {
    violations.push(usageWithoutInventory(row));
  }
  for (const row of await tx.rows(`
    SELECT x.project, sum(x.instances)::bigint AS instances, sum(x.recorded_instances)::bigint AS "recordedInstances",
           sum(x.cpu)::bigint AS cpu, sum(x.recorded_cpu)::bigint AS "recordedCpu",
           sum(x.memory)::bigint AS "memoryBytes", sum(x.recorded_memory)::bigint AS "recordedMemoryBytes",
           sum(x.disk)::bigint AS "diskBytes", sum(x.recorded_disk)::bigint AS "recordedDiskBytes",
           sum(x.containers)::bigint AS containers, sum(x.recorded_containers)::bigint AS "recordedContainers"
    FROM (
      SELECT project, count(*) AS instances, 0 AS recorded_instances, sum(limits_cpu) AS cpu, 0 AS recorded_cpu,
             sum(limits_memory_bytes) AS memory, 0 AS recorded_memory, sum(limits_disk_bytes) AS disk,
             0 AS recorded_disk, count(*) FILTER (WHERE type = 'container') AS containers, 0 AS recorded_containers
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
  violations.push(...(await consumerViolations(tx, violations)));
  const [counts] = await tx.rows<{ members: number; instances: number; allocations: number }>(`
    SELECT (SELECT count(*) FROM members)::int AS members, (SELECT count(*) FROM instances)::int AS instances,
           (SELECT count(*) FROM allocations)::int AS allocations`);
  return {
    ok: violations.length === 0,
    violations,
    counts: {
      members: counts?.members ?? 0,
      instances: counts?.instances ?? 0,
      allocations: counts?.allocations ?? 0,
    },
  };
}
