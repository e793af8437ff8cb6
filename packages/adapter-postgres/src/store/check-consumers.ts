/**
 * `check()`'s Placement part: PostgreSQL sums the consumers' allocations
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
import type { Tx } from "../connection/pools.js";

export async function consumerViolations(tx: Tx, reported: readonly Violation[]): Promise<Violation[]> {
  const sums: ConsumerSumRow[] = (
    await tx.rows<{
      provider: string;
      resource_class: string;
      used: string | number;
      row_uuid: string | null;
      name: string | null;
      parent_uuid: string | null;
      inventories: Record<string, Inventory> | null;
    }>(`
      SELECT c.provider_uuid AS provider, c.resource_class, sum(c.amount)::bigint AS used,
             p.uuid AS row_uuid, p.name, p.parent_uuid, p.inventories
      FROM consumer_allocations AS c LEFT JOIN providers AS p ON p.uuid = c.provider_uuid
      GROUP BY c.provider_uuid, c.resource_class, p.uuid`)
  ).map((row) => ({
    provider: row.provider,
    resourceClass: row.resource_class,
    used: Number(row.used),
    row:
      row.row_uuid === null
        ? null
        : { name: row.name ?? "", parentUuid: row.parent_uuid, inventories: row.inventories ?? {} },
  }));
  const names = membersOfConsumerRows(sums);
  const members: MemberClassRow[] =
    names.length === 0
      ? []
      : (
          await tx.rows<{
            member: string;
            resource_class: string;
            instances: string | number;
            total: number | null;
            reserved: number;
            allocation_ratio: number;
            grandfathered: number;
          }>(
            `SELECT m.name AS member, x.resource_class, sum(x.amount)::bigint AS instances,
                    i.total, i.reserved, i.allocation_ratio, i.grandfathered_usage AS grandfathered
             FROM members AS m
             JOIN (SELECT member_id, resource_class, amount FROM usage
                   UNION ALL SELECT member_id, resource_class, 0 FROM inventories) AS x ON x.member_id = m.id
             LEFT JOIN inventories AS i ON i.member_id = m.id AND i.resource_class = x.resource_class
             WHERE m.name = ANY($1::text[])
             GROUP BY m.id, m.name, x.resource_class, i.total, i.reserved, i.allocation_ratio, i.grandfathered_usage`,
            [names],
          )
        ).map((row) =>
          memberClassRowOf({
            member: row.member,
            resourceClass: row.resource_class,
            instances: row.instances,
            total: row.total,
            reserved: row.reserved,
            allocationRatio: row.allocation_ratio,
            grandfathered: row.grandfathered,
          }),
        );
  return consumerLedgerViolations(sums, members, reported);
}
