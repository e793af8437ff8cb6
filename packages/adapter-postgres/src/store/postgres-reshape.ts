/**
 * Placement's reshaper in PostgreSQL: one write transaction locks and
 * reads the written consumers and the providers the reshape names as a
 * consumer claim does (consumer-rows.ts), a member's root read as its
 * member with or without a stored row (member-root-writes.ts: its
 * inventories, one ledger, and Placement's generation of the root), calls
 * the engine's `checkReshape`, then writes the providers' inventories and
 * generations (a member root's inventories on the member, its row created
 * when missing) and the consumers' rows: all or nothing. It appends the
 * providers' change-feed entry (other servers read the rows again), the
 * members' and a consumer claim's entry (their models count the usage).
 */
import {
  type ConsumerRecord,
  checkReshape,
  memberRootReshapes,
  type ReshapeWrite,
  reshapeMemberRoots,
  reshapeProvidersToRead,
  withMemberRootRows,
  writeMemberRootReshapes,
} from "@berth/engine";
import type { Pools } from "../connection/pools.js";
import { claimedProviders, instanceIdsAmong, lockedConsumers, writeConsumers } from "./consumer-rows.js";
import { appendChanges } from "./feed-writes.js";
import { memberLedgers, writersOf } from "./member-root-writes.js";

export function reshapeInPostgres(pools: Pools, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return pools.writeTx(async (tx) => {
    const uuids = change.writes.map((w) => w.record.uuid);
    const current = await lockedConsumers(tx, uuids);
    const named = reshapeProvidersToRead(change, current);
    const { rows, memberRoots } = await claimedProviders(tx, named);
    const roots = await reshapeMemberRoots(change, named, memberRoots, rows, (names) =>
      memberLedgers(tx, names),
    );
    withMemberRootRows(rows, roots);
    const now = new Date().toISOString();
    const instances = await instanceIdsAmong(tx, uuids);
    const checked = checkReshape(change, { consumers: current, providers: rows, instances }, now);
    const split = memberRootReshapes(change, checked, roots);
    for (const written of split.providers)
      await tx.run(
        "UPDATE providers SET inventories = $2::jsonb, generation = $3, updated_at = $4 WHERE uuid = $1",
        [written.uuid, JSON.stringify(written.inventories), written.generation, now],
      );
    if (split.providers.length > 0) await appendChanges(tx, [{ kind: "catalog", table: "providers" }]);
    await writeMemberRootReshapes(split.roots, writersOf(tx, now));
    for (const [uuid, root] of roots) memberRoots.set(uuid, root.member);
    await writeConsumers(tx, uuids, checked.consumers, memberRoots, [
      ...split.providers.map((p) => [p.uuid, p.generation] as const),
      ...split.roots.map((r) => [r.uuid, r.rowGeneration] as const),
    ]);
    return checked.consumers.stored;
  });
}
