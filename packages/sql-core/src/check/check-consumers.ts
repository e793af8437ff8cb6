/**
 * `check()`'s Placement part: the database sums the consumers' allocations
 * per provider and class (one row each, never per consumer) and reads the
 * classes of the members whose root providers they name; the engine's
 * invariants module judges them (`consumerLedgerViolations`).
 */
import {
  type ConsumerSumRow,
  consumerLedgerViolations,
  type MemberClassRow,
  memberClassRowOf,
  membersOfConsumerRows,
  type Violation,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import { inList, listParam } from "../runner/lists.js";
import type { SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";

export async function consumerViolations(
  db: SqlRunner,
  reported: readonly Violation[],
): Promise<Violation[]> {
  const sums: ConsumerSumRow[] = (
    await db.all(`
      SELECT c.provider_uuid AS provider, c.resource_class AS "resourceClass", CAST(sum(c.amount) AS bigint) AS used,
             p.uuid AS "rowUuid", p.name AS name, p.parent_uuid AS "parentUuid", p.inventories AS inventories
      FROM consumer_allocations AS c LEFT JOIN providers AS p ON p.uuid = c.provider_uuid
      GROUP BY c.provider_uuid, c.resource_class, p.uuid`)
  ).map((row) => ({
    provider: String(row.provider),
    resourceClass: String(row.resourceClass),
    used: Number(row.used),
    row:
      row.rowUuid === null
        ? null
        : {
            name: String(row.name),
            parentUuid: row.parentUuid === null ? null : String(row.parentUuid),
            inventories: jsonValue<Record<string, Inventory>>(row.inventories),
          },
  }));
  const names = membersOfConsumerRows(sums);
  if (names.length === 0) return consumerLedgerViolations(sums, [], reported);
  const members: MemberClassRow[] = (
    await db.all(
      `SELECT m.name AS member, x.resource_class AS "resourceClass", CAST(sum(x.amount) AS bigint) AS instances,
              i.total AS total, i.reserved AS reserved, i.allocation_ratio AS "allocationRatio",
              i.grandfathered_usage AS grandfathered
       FROM members AS m
       JOIN (SELECT member_id, resource_class, amount FROM usage
             UNION ALL SELECT member_id, resource_class, 0 FROM inventories) AS x ON x.member_id = m.id
       LEFT JOIN inventories AS i ON i.member_id = m.id AND i.resource_class = x.resource_class
       WHERE m.name IN ${inList(db)}
       GROUP BY m.id, m.name, x.resource_class, i.total, i.reserved, i.allocation_ratio, i.grandfathered_usage`,
      [listParam(names)],
    )
  ).map((row) =>
    memberClassRowOf({
      member: String(row.member),
      resourceClass: String(row.resourceClass),
      instances: row.instances,
      total: row.total,
      reserved: row.reserved,
      allocationRatio: row.allocationRatio,
      grandfathered: row.grandfathered,
    }),
  );
  return consumerLedgerViolations(sums, members, reported);
}
