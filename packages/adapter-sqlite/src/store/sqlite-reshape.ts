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
import { eq, inArray } from "drizzle-orm";
import type { Connection } from "../connection/open-connection.js";
import { consumerAllocations, consumers, providers } from "../schema/index.js";
import { appendChanges } from "./feed-writes.js";
import { loadConsumers, usedSums } from "./sqlite-consumers.js";

export function reshapeInSqlite(connection: Connection, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return connection.write(
    async (db, raw) => {
      const uuids = change.writes.map((w) => w.record.uuid);
      const current = new Map(
        (await loadConsumers(db, inArray(consumers.uuid, uuids))).map((c) => [c.uuid, c]),
      );
      const names = reshapeProvidersToRead(change, current);
      const rows = new Map<string, ReshapeProviderRows>();
      if (names.length > 0) {
        const found = await db.select().from(providers).where(inArray(providers.uuid, names));
        const used = await usedSums(db, names);
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
