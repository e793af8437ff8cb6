/**
 * Placement consumers in PostgreSQL: a `consumers` row per consumer and its
 * `consumer_allocations` rows. `claim` runs in one write transaction: it
 * locks the written consumers' rows and the providers the writes touch
 * (FOR UPDATE, in uuid order so two claims never deadlock), reads the used
 * sums, calls the engine's `checkConsumerClaim` and writes what it returns,
 * so concurrent servers can never overcommit a provider. A member's root
 * provider is read as the member (engine `sharedLedgerRows`): one ledger
 * for instances and consumers.
 */
import {
  type AllocationRow,
  type ConsumerRecord,
  type ConsumerTable,
  type ConsumerWrite,
  checkConsumerClaim,
  consumerClaimEntry,
  consumerProvidersToRead,
  isMemberRoot,
  type ProviderRows,
  type ReshapeWrite,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import type { Pools, Tx } from "../connection/pools.js";
import { lockMembers, readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { reshapeInPostgres } from "./postgres-reshape.js";

export interface ConsumerRow {
  uuid: string;
  project_id: string;
  user_id: string;
  consumer_type: string | null;
  generation: number;
  created_at: string;
  updated_at: string;
}

interface AllocationDbRow {
  consumer_uuid: string;
  provider_uuid: string;
  resource_class: string;
  amount: number;
}

export const CONSUMER_COLUMNS =
  "uuid, project_id, user_id, consumer_type, generation, created_at, updated_at";

export async function withAllocations(tx: Tx, heads: ConsumerRow[]): Promise<ConsumerRecord[]> {
  if (heads.length === 0) return [];
  const rows = await tx.rows<AllocationDbRow>(
    `SELECT consumer_uuid, provider_uuid, resource_class, amount FROM consumer_allocations
     WHERE consumer_uuid = ANY($1::text[]) ORDER BY consumer_uuid, position`,
    [heads.map((h) => h.uuid)],
  );
  const byConsumer = new Map<string, AllocationRow[]>();
  for (const row of rows) {
    const list = byConsumer.get(row.consumer_uuid) ?? [];
    list.push({
      member: row.provider_uuid,
      resourceClass: row.resource_class,
      ledger: "used",
      amount: Number(row.amount),
    });
    byConsumer.set(row.consumer_uuid, list);
  }
  return heads.map((h) => ({
    uuid: h.uuid,
    projectId: h.project_id,
    userId: h.user_id,
    consumerType: h.consumer_type,
    generation: h.generation,
    allocations: byConsumer.get(h.uuid) ?? [],
    createdAt: h.created_at,
    updatedAt: h.updated_at,
  }));
}

/** Used amounts per class of the named providers (all when omitted); each named one is present. */
export async function usedSums(
  tx: Tx,
  names: readonly string[] | undefined,
): Promise<Map<string, Record<string, number>>> {
  const rows = await tx.rows<{ provider_uuid: string; resource_class: string; amount: number }>(
    `SELECT provider_uuid, resource_class, sum(amount)::bigint AS amount FROM consumer_allocations
     WHERE $1::text[] IS NULL OR provider_uuid = ANY($1::text[])
     GROUP BY provider_uuid, resource_class`,
    [names === undefined ? null : [...names]],
  );
  const out = new Map<string, Record<string, number>>((names ?? []).map((n) => [n, {}]));
  for (const row of rows) {
    const amount = Number(row.amount);
    if (amount === 0) continue;
    const entry = out.get(row.provider_uuid) ?? {};
    entry[row.resource_class] = amount;
    out.set(row.provider_uuid, entry);
  }
  return out;
}

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
      const heads = await tx.rows<ConsumerRow>(
        `SELECT ${CONSUMER_COLUMNS} FROM consumers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE`,
        [uuids],
      );
      const current = new Map((await withAllocations(tx, heads)).map((c) => [c.uuid, c]));
      const names = consumerProvidersToRead(writes, current);
      const rows = new Map<string, ProviderRows>();
      /** Member root providers among them, by uuid: the member's name. */
      const memberRoots = new Map<string, string>();
      if (names.length > 0) {
        const found = await tx.rows<{ uuid: string; name: string; inventories: Record<string, Inventory> }>(
          "SELECT uuid, name, inventories FROM providers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE",
          [names],
        );
        const used = await usedSums(tx, names);
        for (const p of found) {
          if (isMemberRoot(p.uuid, p.name)) memberRoots.set(p.uuid, p.name);
          rows.set(p.uuid, { inventories: p.inventories, used: used.get(p.uuid) ?? {}, forthcoming: {} });
        }
        // One ledger: a member's root provider has the member's inventories and instances. Its
        // member row is locked as an instance claim locks it (after the providers, in name
        // order), so the two kinds of claim on one member take turns.
        const members = (await readProviders(tx, await lockMembers(tx, [...memberRoots.values()]))).providers;
        for (const [uuid, name] of memberRoots) {
          const member = members.get(name);
          if (member !== undefined) rows.set(uuid, member);
        }
      }
      const checked = checkConsumerClaim(
        writes,
        { consumers: current, providers: rows },
        new Date().toISOString(),
      );
      const bumped =
        checked.providersChanged.length === 0
          ? []
          : await tx.rows<{ uuid: string; generation: number }>(
              "UPDATE providers SET generation = generation + 1 WHERE uuid = ANY($1::text[]) RETURNING uuid, generation",
              [checked.providersChanged],
            );
      // Every written consumer's rows are replaced (delete cascades to its allocations).
      await tx.run("DELETE FROM consumers WHERE uuid = ANY($1::text[])", [uuids]);
      for (const record of checked.stored) {
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
      await appendChanges(tx, [
        consumerClaimEntry(
          checked,
          (uuid) => memberRoots.get(uuid),
          bumped.map((row) => [row.uuid, Number(row.generation)] as const),
        ),
      ]);
      return checked.stored;
    });
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return reshapeInPostgres(this.pools, change);
  }
}
