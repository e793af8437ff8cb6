/**
 * Placement's reshaper in SQLite: inside one write transaction (BEGIN
 * IMMEDIATE) reads the written consumers, the providers the reshape names
 * (with their generations) and their used sums, calls the engine's
 * `checkReshape`, then writes the providers' inventories and generations
 * and the consumers' rows, so a reshape is all or nothing. The providers'
 * change-feed entry lets other servers drop their cached provider reads.
 */
import {
  type ConsumerRecord,
  checkReshape,
  type ReshapeProviderRows,
  type ReshapeWrite,
  reshapeProvidersToRead,
} from "@berth/engine";
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Connection, Database } from "../connection/open-connection.js";
import { consumerAllocations, consumers, providers } from "../schema/index.js";
import { appendChanges } from "./feed-writes.js";

/** The written consumers as stored now, with their allocation rows. */
async function currentConsumers(
  db: Database,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRecord>> {
  const out = new Map<string, ConsumerRecord>();
  for (const head of await db
    .select()
    .from(consumers)
    .where(inArray(consumers.uuid, [...uuids])))
    out.set(head.uuid, { ...head, allocations: [] });
  if (out.size === 0) return out;
  const rows = await db
    .select()
    .from(consumerAllocations)
    .where(inArray(consumerAllocations.consumerUuid, [...out.keys()]))
    .orderBy(asc(consumerAllocations.position));
  for (const row of rows)
    out.get(row.consumerUuid)?.allocations.push({
      member: row.providerUuid,
      resourceClass: row.resourceClass,
      ledger: "used",
      amount: row.amount,
    });
  return out;
}

/** What the consumers hold on each named provider, by class. */
async function usedOn(db: Database, names: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  const sums = await db
    .select({
      provider: consumerAllocations.providerUuid,
      resourceClass: consumerAllocations.resourceClass,
      amount: sql<number>`sum(${consumerAllocations.amount})`,
    })
    .from(consumerAllocations)
    .where(inArray(consumerAllocations.providerUuid, [...names]))
    .groupBy(consumerAllocations.providerUuid, consumerAllocations.resourceClass);
  for (const { provider, resourceClass, amount } of sums)
    if (Number(amount) !== 0)
      out.set(provider, { ...(out.get(provider) ?? {}), [resourceClass]: Number(amount) });
  return out;
}

export function reshapeInSqlite(connection: Connection, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return connection.write(
    async (db, raw) => {
      const uuids = change.writes.map((w) => w.record.uuid);
      const current = await currentConsumers(db, uuids);
      const names = reshapeProvidersToRead(change, current);
      const rows = new Map<string, ReshapeProviderRows>();
      if (names.length > 0) {
        const found = await db.select().from(providers).where(inArray(providers.uuid, names));
        const used = await usedOn(db, names);
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
        await db
          .update(providers)
          .set({ inventories: written.inventories, generation: written.generation, updatedAt: now })
          .where(eq(providers.uuid, written.uuid));
      if (checked.providers.length > 0) await appendChanges(raw, [{ kind: "catalog", table: "providers" }]);
      // Every written consumer's rows are replaced (delete cascades to its allocations).
      await db.delete(consumers).where(inArray(consumers.uuid, uuids));
      for (const { allocations, ...head } of checked.consumers.stored) {
        await db.insert(consumers).values(head);
        if (allocations.length > 0)
          await db.insert(consumerAllocations).values(
            allocations.map((row, position) => ({
              consumerUuid: head.uuid,
              providerUuid: row.member,
              resourceClass: row.resourceClass,
              amount: row.amount,
              position,
            })),
          );
      }
      return checked.consumers.stored;
    },
    { claim: true },
  );
}
