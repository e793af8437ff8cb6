/**
 * Change-feed entries, appended inside the writing transaction (see
 * schema/feed.ts): SQLite's single writer makes their ids commit order.
 */
import type { ChangeEntry } from "@berth/engine";
import type { RawSql } from "../connection/open-connection.js";
import { jsonParameter } from "./json-rows.js";

export async function appendChanges(raw: RawSql, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (entries.length === 1) {
    await raw.run("INSERT INTO change_log (at, entry) VALUES (?, ?)", [
      Date.now(),
      JSON.stringify(entries[0]),
    ]);
    return;
  }
  await raw.run("INSERT INTO change_log (at, entry) SELECT ?, value FROM json_each(?) ORDER BY key", [
    Date.now(),
    jsonParameter(entries.map((entry) => JSON.stringify(entry))),
  ]);
}
