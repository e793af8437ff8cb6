/**
 * Placement's reshaper in SQLite: inside one write transaction (BEGIN
 * IMMEDIATE) reads the written consumers and the providers the reshape
 * names as a consumer claim reads them (consumer-rows.ts: a member's root
 * provider with the member's inventories and instances, one ledger), calls
 * the engine's `checkReshape`, then writes the providers' inventories and
 * generations and the consumers' rows, so a reshape is all or nothing. It
 * appends the providers' change-feed entry (other servers read the rows
 * again) and a consumer claim's entry (their models count the usage).
 */
import { type ConsumerRecord, checkReshape, type ReshapeWrite, reshapeProvidersToRead } from "@berth/engine";
import type { Connection } from "../connection/open-connection.js";
import { claimedProviders, currentConsumers, instanceIdsAmong, writeConsumers } from "./consumer-rows.js";
import { appendChanges } from "./feed-writes.js";

export function reshapeInSqlite(connection: Connection, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return connection.write(
    async (_db, raw) => {
      const uuids = change.writes.map((w) => w.record.uuid);
      const current = await currentConsumers(raw, uuids);
      const { rows, memberRoots } = await claimedProviders(raw, reshapeProvidersToRead(change, current));
      const now = new Date().toISOString();
      const instances = await instanceIdsAmong(raw, uuids);
      const checked = checkReshape(change, { consumers: current, providers: rows, instances }, now);
      for (const written of checked.providers)
        await raw.run("UPDATE providers SET inventories = ?, generation = ?, updated_at = ? WHERE uuid = ?", [
          JSON.stringify(written.inventories),
          written.generation,
          now,
          written.uuid,
        ]);
      if (checked.providers.length > 0) await appendChanges(raw, [{ kind: "catalog", table: "providers" }]);
      await writeConsumers(
        raw,
        uuids,
        checked.consumers,
        memberRoots,
        checked.providers.map((p) => [p.uuid, p.generation] as const),
      );
      return checked.consumers.stored;
    },
    { claim: true },
  );
}
