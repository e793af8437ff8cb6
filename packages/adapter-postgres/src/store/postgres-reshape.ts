/**
 * Placement's reshaper in PostgreSQL: one write transaction locks the
 * written consumers and the providers the reshape names (FOR UPDATE, in
 * uuid order, as a consumer claim does), reads the used sums, calls the
 * engine's `checkReshape`, then writes the providers' inventories and
 * generations and the consumers' rows: all or nothing. The providers'
 * change-feed entry lets other servers drop their cached provider reads.
 */
import {
  type ConsumerRecord,
  checkReshape,
  type ReshapeProviderRows,
  type ReshapeWrite,
  reshapeProvidersToRead,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import type { Pools } from "../connection/pools.js";
import { appendChanges } from "./feed-writes.js";
import { CONSUMER_COLUMNS, type ConsumerRow, usedSums, withAllocations } from "./postgres-consumers.js";

export function reshapeInPostgres(pools: Pools, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return pools.writeTx(async (tx) => {
    const uuids = change.writes.map((w) => w.record.uuid);
    const heads = await tx.rows<ConsumerRow>(
      `SELECT ${CONSUMER_COLUMNS} FROM consumers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE`,
      [uuids],
    );
    const current = new Map((await withAllocations(tx, heads)).map((c) => [c.uuid, c]));
    const names = reshapeProvidersToRead(change, current);
    const rows = new Map<string, ReshapeProviderRows>();
    if (names.length > 0) {
      const found = await tx.rows<{
        uuid: string;
        generation: number;
        inventories: Record<string, Inventory>;
      }>(
        "SELECT uuid, generation, inventories FROM providers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE",
        [names],
      );
      const used = await usedSums(tx, names);
      for (const p of found)
        rows.set(p.uuid, {
          inventories: p.inventories,
          used: used.get(p.uuid) ?? {},
          forthcoming: {},
          generation: p.generation,
        });
    }
    const now = new Date().toISOString();
    const checked = checkReshape(change, { consumers: current, providers: rows }, now);
    for (const written of checked.providers)
      await tx.run(
        "UPDATE providers SET inventories = $2::jsonb, generation = $3, updated_at = $4 WHERE uuid = $1",
        [written.uuid, JSON.stringify(written.inventories), written.generation, now],
      );
    if (checked.providers.length > 0) await appendChanges(tx, [{ kind: "catalog", table: "providers" }]);
    // Every written consumer's rows are replaced (delete cascades to its allocations).
    await tx.run("DELETE FROM consumers WHERE uuid = ANY($1::text[])", [uuids]);
    for (const record of checked.consumers.stored) {
      await tx.run(`INSERT INTO consumers (${CONSUMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        record.uuid,
        record.projectId,
        record.userId,
        record.consumerType,
        record.generation,
        record.createdAt,
        record.updatedAt,
      ]);
      if (record.allocations.length > 0)
        await tx.run(
          `INSERT INTO consumer_allocations (consumer_uuid, provider_uuid, resource_class, amount, position)
           SELECT $1, a.provider_uuid, a.resource_class, a.amount, a.position - 1
           FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY
             AS a(provider_uuid, resource_class, amount, position)`,
          [
            record.uuid,
            record.allocations.map((row) => row.member),
            record.allocations.map((row) => row.resourceClass),
            record.allocations.map((row) => row.amount),
          ],
        );
    }
    return checked.consumers.stored;
  });
}
