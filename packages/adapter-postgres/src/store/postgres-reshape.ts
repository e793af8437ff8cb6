/**
 * Placement's reshaper in PostgreSQL: one write transaction locks and
 * reads the written consumers and the providers the reshape names as a
 * consumer claim does (consumer-rows.ts: a member's root provider with the
 * member's inventories and instances, one ledger), calls the engine's
 * `checkReshape`, then writes the providers' inventories and generations
 * and the consumers' rows: all or nothing. It appends the providers'
 * change-feed entry (other servers read the rows again) and a consumer
 * claim's entry (their models count the usage).
 */
import { type ConsumerRecord, checkReshape, type ReshapeWrite, reshapeProvidersToRead } from "@berth/engine";
import type { Pools } from "../connection/pools.js";
import { claimedProviders, instanceIdsAmong, lockedConsumers, writeConsumers } from "./consumer-rows.js";
import { appendChanges } from "./feed-writes.js";

export function reshapeInPostgres(pools: Pools, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return pools.writeTx(async (tx) => {
    const uuids = change.writes.map((w) => w.record.uuid);
    const current = await lockedConsumers(tx, uuids);
    const { rows, memberRoots } = await claimedProviders(tx, reshapeProvidersToRead(change, current));
    const now = new Date().toISOString();
    const instances = await instanceIdsAmong(tx, uuids);
    const checked = checkReshape(change, { consumers: current, providers: rows, instances }, now);
    for (const written of checked.providers)
      await tx.run(
        "UPDATE providers SET inventories = $2::jsonb, generation = $3, updated_at = $4 WHERE uuid = $1",
        [written.uuid, JSON.stringify(written.inventories), written.generation, now],
      );
    if (checked.providers.length > 0) await appendChanges(tx, [{ kind: "catalog", table: "providers" }]);
    await writeConsumers(
      tx,
      uuids,
      checked.consumers,
      memberRoots,
      checked.providers.map((p) => [p.uuid, p.generation] as const),
    );
    return checked.consumers.stored;
  });
}
