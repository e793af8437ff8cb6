/**
 * Placement consumers in PostgreSQL: a `consumers` row per consumer and its
 * `consumer_allocations` rows. `claim` runs in one write transaction: it
 * locks the written consumers' rows and the providers the writes touch
 * (FOR UPDATE, in uuid order so two claims never deadlock), reads the used
 * sums, calls the engine's `checkConsumerClaim` and writes what it returns,
 * so concurrent servers can never overcommit a provider. A member's root
 * provider is read as the member (engine `sharedLedgerRows`): one ledger
 * for instances and consumers. The reads and writes it shares with the
 * reshaper are consumer-rows.ts.
 */
import {
  type ConsumerRecord,
  type ConsumerTable,
  type ConsumerWrite,
  checkConsumerClaim,
  consumerProvidersToRead,
  type ReshapeWrite,
} from "@berth/engine";
import type { Pools } from "../connection/pools.js";
import {
  CONSUMER_COLUMNS,
  type ConsumerRow,
  claimedProviders,
  instanceIdsAmong,
  lockedConsumers,
  usedSums,
  withAllocations,
  writeConsumers,
} from "./consumer-rows.js";
import { reshapeInPostgres } from "./postgres-reshape.js";

export class PostgresConsumers implements ConsumerTable {
  constructor(private readonly pools: Pools) {}

  get(uuid: string): Promise<ConsumerRecord | undefined> {
    return this.pools.readTx(async (tx) => {
      const heads = await tx.rows<ConsumerRow>(`SELECT ${CONSUMER_COLUMNS} FROM consumers WHERE uuid = $1`, [
        uuid,
      ]);
      return (await withAllocations(tx, heads))[0];
    });
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.pools.readTx(async (tx) => {
      const heads = await tx.rows<ConsumerRow>(
        `SELECT ${CONSUMER_COLUMNS} FROM consumers
         WHERE ($1::text IS NULL OR project_id = $1)
           AND ($2::text IS NULL OR user_id = $2)
           AND ($3::text IS NULL OR uuid IN (SELECT consumer_uuid FROM consumer_allocations WHERE provider_uuid = $3))
         ORDER BY created_at, uuid`,
        [filter.project ?? null, filter.user ?? null, filter.provider ?? null],
      );
      return withAllocations(tx, heads);
    });
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.pools.readTx((tx) => usedSums(tx, names));
  }

  /** Appends a change-feed entry: other servers' models follow the members' shared ledger. */
  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.pools.writeTx(async (tx) => {
      const uuids = writes.map((w) => w.record.uuid);
      const current = await lockedConsumers(tx, uuids);
      const { rows, memberRoots } = await claimedProviders(tx, consumerProvidersToRead(writes, current));
      const checked = checkConsumerClaim(
        writes,
        { consumers: current, providers: rows, instances: await instanceIdsAmong(tx, uuids) },
        new Date().toISOString(),
      );
      const bumped =
        checked.providersChanged.length === 0
          ? []
          : await tx.rows<{ uuid: string; generation: number }>(
              "UPDATE providers SET generation = generation + 1 WHERE uuid = ANY($1::text[]) RETURNING uuid, generation",
              [checked.providersChanged],
            );
      await writeConsumers(
        tx,
        uuids,
        checked,
        memberRoots,
        bumped.map((row) => [row.uuid, Number(row.generation)] as const),
      );
      return checked.stored;
    });
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return reshapeInPostgres(this.pools, change);
  }
}
