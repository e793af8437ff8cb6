/**
 * Placement consumers in SQLite: a `consumers` row per consumer and its
 * `consumer_allocations` rows. `claim` reads the consumers and the
 * providers' inventories and used sums inside one write transaction
 * (BEGIN IMMEDIATE), calls the engine's `checkConsumerClaim` and writes
 * what it returns, so concurrent processes can never overcommit.
 */
import {
  type AllocationRow,
  type ConsumerRecord,
  type ConsumerTable,
  type ConsumerWrite,
  checkConsumerClaim,
  consumerProvidersToRead,
  type ProviderRows,
  type ReshapeWrite,
} from "@berth/engine";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Connection, Database } from "../connection/open-connection.js";
import { consumerAllocations, consumers, providers } from "../schema/index.js";
import { reshapeInSqlite } from "./sqlite-reshape.js";

async function loadConsumers(db: Database, where: SQL | undefined): Promise<ConsumerRecord[]> {
  const heads = await db.select().from(consumers).where(where).orderBy(asc(consumers.createdAt));
  if (heads.length === 0) return [];
  const rows = await db
    .select()
    .from(consumerAllocations)
    .where(
      inArray(
        consumerAllocations.consumerUuid,
        heads.map((h) => h.uuid),
      ),
    )
    .orderBy(asc(consumerAllocations.position));
  const byConsumer = new Map<string, AllocationRow[]>();
  for (const row of rows) {
    const list = byConsumer.get(row.consumerUuid) ?? [];
    list.push({
      member: row.providerUuid,
      resourceClass: row.resourceClass,
      ledger: "used",
      amount: row.amount,
    });
    byConsumer.set(row.consumerUuid, list);
  }
  return heads.map((h) => ({
    uuid: h.uuid,
    projectId: h.projectId,
    userId: h.userId,
    consumerType: h.consumerType,
    generation: h.generation,
    allocations: byConsumer.get(h.uuid) ?? [],
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
  }));
}

async function usedSums(
  db: Database,
  names: readonly string[] | undefined,
): Promise<Map<string, Record<string, number>>> {
  const rows = await db
    .select({
      provider: consumerAllocations.providerUuid,
      resourceClass: consumerAllocations.resourceClass,
      amount: sql<number>`sum(${consumerAllocations.amount})`,
    })
    .from(consumerAllocations)
    .where(names === undefined ? undefined : inArray(consumerAllocations.providerUuid, [...names]))
    .groupBy(consumerAllocations.providerUuid, consumerAllocations.resourceClass);
  const out = new Map<string, Record<string, number>>((names ?? []).map((n) => [n, {}]));
  for (const row of rows) {
    if (row.amount === 0) continue;
    const entry = out.get(row.provider) ?? {};
    entry[row.resourceClass] = Number(row.amount);
    out.set(row.provider, entry);
  }
  return out;
}

export class SqliteConsumers implements ConsumerTable {
  constructor(
    private readonly connection: Connection,
    /** Called after a claim bumped provider generations (the providers table's read cache). */
    private readonly providersWritten: () => void,
  ) {}

  get(uuid: string): Promise<ConsumerRecord | undefined> {
    return this.connection.read(async (db) => (await loadConsumers(db, eq(consumers.uuid, uuid)))[0]);
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.connection.read((db) => {
      const terms: SQL[] = [];
      if (filter.project !== undefined) terms.push(eq(consumers.projectId, filter.project));
      if (filter.user !== undefined) terms.push(eq(consumers.userId, filter.user));
      if (filter.provider !== undefined)
        terms.push(
          sql`${consumers.uuid} IN (SELECT ${consumerAllocations.consumerUuid} FROM ${consumerAllocations} WHERE ${consumerAllocations.providerUuid} = ${filter.provider})`,
        );
      return loadConsumers(db, terms.length === 0 ? undefined : and(...terms));
    });
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.connection.read((db) => usedSums(db, names));
  }

  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.connection
      .write(
        async (db) => {
          const uuids = writes.map((w) => w.record.uuid);
          const current = new Map(
            (await loadConsumers(db, inArray(consumers.uuid, uuids))).map((c) => [c.uuid, c]),
          );
          const names = consumerProvidersToRead(writes, current);
          const rows = new Map<string, ProviderRows>();
          if (names.length > 0) {
            const found = await db.select().from(providers).where(inArray(providers.uuid, names));
            const used = await usedSums(db, names);
            for (const p of found)
              rows.set(p.uuid, { inventories: p.inventories, used: used.get(p.uuid) ?? {}, forthcoming: {} });
          }
          const checked = checkConsumerClaim(
            writes,
            { consumers: current, providers: rows },
            new Date().toISOString(),
          );
          if (checked.providersChanged.length > 0)
            await db
              .update(providers)
              .set({ generation: sql`${providers.generation} + 1` })
              .where(inArray(providers.uuid, checked.providersChanged));
          // Every written consumer's rows are replaced (delete cascades to its allocations).
          await db.delete(consumers).where(inArray(consumers.uuid, uuids));
          for (const record of checked.stored) {
            const { allocations, ...head } = record;
            await db.insert(consumers).values(head);
            if (allocations.length > 0)
              await db.insert(consumerAllocations).values(
                allocations.map((row, position) => ({
                  consumerUuid: record.uuid,
                  providerUuid: row.member,
                  resourceClass: row.resourceClass,
                  amount: row.amount,
                  position,
                })),
              );
          }
          return checked.stored;
        },
        { claim: true },
      )
      .finally(this.providersWritten);
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return reshapeInSqlite(this.connection, change).finally(this.providersWritten);
  }
}
