/**
 * `check()`'s Placement part: SQLite sums the consumers' allocations per
 * provider and class (one row each, never per consumer) and reads the
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
import { sql } from "drizzle-orm";
import type { Database } from "../connection/open-connection.js";
import { jsonParameter } from "./json-rows.js";

type Row = Record<string, unknown>;

export async function consumerViolations(db: Database, reported: readonly Violation[]): Promise<Violation[]> {
  const sums: ConsumerSumRow[] = (
    (await db.all<Row>(sql`
      SELECT c.provider_uuid AS provider, c.resource_class AS resourceClass, sum(c.amount) AS used,
             p.uuid AS rowUuid, p.name AS name, p.parent_uuid AS parentUuid, p.inventories AS inventories
      FROM consumer_allocations AS c LEFT JOIN providers AS p ON p.uuid = c.provider_uuid
      GROUP BY c.provider_uuid, c.resource_class`)) ?? []
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
            inventories: JSON.parse(String(row.inventories)),
          },
  }));
  const names = membersOfConsumerRows(sums);
  const members: MemberClassRow[] =
    names.length === 0
      ? []
      : (
          (await db.all<Row>(sql`
            SELECT m.name AS member, x.resource_class AS resourceClass, sum(x.amount) AS instances,
                   i.total AS total, i.reserved AS reserved, i.allocation_ratio AS allocationRatio,
                   i.grandfathered_usage AS grandfathered
            FROM members AS m
            JOIN (SELECT member_id, resource_class, amount FROM usage
                  UNION ALL SELECT member_id, resource_class, 0 FROM inventories) AS x ON x.member_id = m.id
            LEFT JOIN inventories AS i ON i.member_id = m.id AND i.resource_class = x.resource_class
            WHERE m.name IN (SELECT value FROM json_each(${jsonParameter(names)}))
            GROUP BY m.id, x.resource_class`)) ?? []
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
