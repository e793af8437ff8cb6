/**
 * Appends change-feed entries inside the writing transaction. It must be
 * the transaction's last statement: the entry's id is drawn here, after
 * every lock the transaction took, so a writer that waited for another's
 * locks always gets the higher id (see schema/feed.ts).
 */
import type { ChangeEntry } from "@berth/engine";
import type { Tx } from "../connection/pools.js";

/** The insert, entries in parameter `$<param>`, without its `ORDER BY n` (a caller may add a WHERE first). */
export function appendChangesSql(param: number): string {
  return `INSERT INTO change_log (entry, at) SELECT e, clock_timestamp() FROM unnest($${param}::jsonb[]) WITH ORDINALITY AS t(e, n)`;
}

export async function appendChanges(tx: Pick<Tx, "run">, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.run(`${appendChangesSql(1)} ORDER BY n`, [entries.map((entry) => JSON.stringify(entry))]);
}
