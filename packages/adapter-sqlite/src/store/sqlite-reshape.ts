/**
 * Placement's reshaper in SQLite: inside one write transaction (BEGIN
 * IMMEDIATE) reads the written consumers and the providers the reshape
 * names as a consumer claim reads them (consumer-rows.ts), a member's root
 * read as its member with or without a stored row (member-root-writes.ts:
 * its inventories, one ledger, and Placement's generation of the root),
 * calls the engine's `checkReshape`, then writes the providers' inventories
 * and generations (a member root's inventories on the member, its row
 * created when missing) and the consumers' rows, so a reshape is all or
 * nothing. It appends the providers' change-feed entry (other servers read
 * the rows again), the members' and a consumer claim's entry (their models
 * count the usage).
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
import type { Connection } from "../connection/open-connection.js";
import { claimedProviders, currentConsumers, instanceIdsAmong, writeConsumers } from "./consumer-rows.js";
import { appendChanges } from "./feed-writes.js";
import { memberLedgers, writersOf } from "./member-root-writes.js";

export function reshapeInSqlite(connection: Connection, change: ReshapeWrite): Promise<ConsumerRecord[]> {
  return connection.write(
    async (db, raw) => {
      const uuids = change.writes.map((w) => w.record.uuid);
      const current = await currentConsumers(raw, uuids);
      const named = reshapeProvidersToRead(change, current);
      const { rows, memberRoots } = await claimedProviders(raw, named);
      const roots = await reshapeMemberRoots(change, named, memberRoots, rows, (names) =>
        memberLedgers(raw, names),
      );
      withMemberRootRows(rows, roots);
      const now = new Date().toISOString();
      const instances = await instanceIdsAmong(raw, uuids);
      const checked = checkReshape(change, { consumers: current, providers: rows, instances }, now);
      const split = memberRootReshapes(change, checked, roots);
      for (const written of split.providers)
        await raw.run("UPDATE providers SET inventories = ?, generation = ?, updated_at = ? WHERE uuid = ?", [
          JSON.stringify(written.inventories),
          written.generation,
          now,
          written.uuid,
        ]);
      if (split.providers.length > 0) await appendChanges(raw, [{ kind: "catalog", table: "providers" }]);
      await writeMemberRootReshapes(split.roots, writersOf(db, raw, now));
      for (const [uuid, root] of roots) memberRoots.set(uuid, root.member);
      await writeConsumers(raw, uuids, checked.consumers, memberRoots, [
        ...split.providers.map((p) => [p.uuid, p.generation] as const),
        ...split.roots.map((r) => [r.uuid, r.rowGeneration] as const),
      ]);
      return checked.consumers.stored;
    },
    { claim: true },
  );
}
