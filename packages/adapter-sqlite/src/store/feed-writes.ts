/**
 * Change-feed entries, appended inside the writing transaction (see
 * schema/feed.ts): SQLite's single writer makes their ids commit order.
 * This is the one place entries are appended, so it is also where the
 * store learns what each transaction appended: once the transaction
 * commits, its listeners are told (`Store.onCommittedWrite`), and so is
 * the store's own feed reader (store/feed.ts), which then answers its next
 * read of them without reading them back.
 */
import type { ChangeEntry, CommittedWrites } from "@berth/engine";
import { listParam } from "@berth/sql-core";
import type { Connection, RawSql } from "../connection/open-connection.js";

/** An appended entry's id and stored text (what a read of the log would bring). */
export interface AppendedRow {
  id: number;
  text: string;
}

/** What one write transaction appended: the entries, and their rows in id order. */
export interface Appended {
  entries: ChangeEntry[];
  rows: AppendedRow[];
}

/** What each open write transaction appended, by its handle (one per attempt: a retried one starts afresh). */
const appendedBy = new WeakMap<RawSql, Appended>();

export async function appendChanges(raw: RawSql, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const texts = entries.map((entry) => JSON.stringify(entry));
  const inserted =
    texts.length === 1
      ? await raw.rows("INSERT INTO change_log (at, entry) VALUES (?, ?) RETURNING id", [
          Date.now(),
          texts[0]!,
        ])
      : await raw.rows(
          "INSERT INTO change_log (at, entry) SELECT ?, value FROM json_each(?) ORDER BY key RETURNING id",
          [Date.now(), listParam(texts)],
        );
  // RETURNING's order is unspecified; the rows were inserted in `texts` order with rising ids.
  const ids = inserted.map((row) => Number(row.id)).sort((a, b) => a - b);
  const rows = texts.map((text, i) => ({ id: ids[i]!, text }));
  const appended = appendedBy.get(raw);
  if (appended === undefined) appendedBy.set(raw, { entries: [...entries], rows });
  else {
    appended.entries.push(...entries);
    appended.rows.push(...rows);
  }
}

/** Calls `listener` with what each committed write transaction of `connection` appended. */
export function onCommittedAppends(connection: Connection, listener: (appended: Appended) => void): void {
  connection.afterCommit((raw) => {
    const appended = appendedBy.get(raw);
    if (appended !== undefined) listener(appended);
  });
}

/** Tells `writes` what each committed transaction of `connection` appended. */
export function announceCommittedWrites(connection: Connection, writes: CommittedWrites): void {
  onCommittedAppends(connection, (appended) => writes.committed(appended.entries));
}
