/**
 * Change-feed entries, appended inside the writing transaction (see
 * schema/feed.ts): SQLite's single writer makes their ids commit order.
 * This is the one place entries are appended, so it is also where the
 * store learns what each transaction appended: once the transaction
 * commits, its listeners are told (`Store.onCommittedWrite`).
 */
import type { ChangeEntry, CommittedWrites } from "@berth/engine";
import { listParam } from "@berth/sql-core";
import type { Connection, RawSql } from "../connection/open-connection.js";

/** What each open write transaction appended, by its handle (one per attempt: a retried one starts afresh). */
const appendedBy = new WeakMap<RawSql, ChangeEntry[]>();

export async function appendChanges(raw: RawSql, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (entries.length === 1) {
    await raw.run("INSERT INTO change_log (at, entry) VALUES (?, ?)", [
      Date.now(),
      JSON.stringify(entries[0]),
    ]);
  } else {
    await raw.run("INSERT INTO change_log (at, entry) SELECT ?, value FROM json_each(?) ORDER BY key", [
      Date.now(),
      listParam(entries.map((entry) => JSON.stringify(entry))),
    ]);
  }
  const appended = appendedBy.get(raw);
  if (appended === undefined) appendedBy.set(raw, [...entries]);
  else appended.push(...entries);
}

/** Tells `writes` what each committed transaction of `connection` appended. */
export function announceCommittedWrites(connection: Connection, writes: CommittedWrites): void {
  connection.afterCommit((raw) => {
    const appended = appendedBy.get(raw);
    if (appended !== undefined) writes.committed(appended);
  });
}
