/**
 * Appends change-feed entries inside the writing transaction. It must be
 * the transaction's last statement: the entry's id is drawn here, after
 * every lock the transaction took, so a writer that waited for another's
 * locks always gets the higher id (see schema/feed.ts).
 */
import type { ChangeEntry } from "@berth/engine";
import type { Tx } from "../connection/pools.js";

export async function appendChanges(tx: Pick<Tx, "run">, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.run(
    `INSERT INTO change_log (entry, at) SELECT e, clock_timestamp() FROM unnest($1::jsonb[]) WITH ORDINALITY AS t(e, n)
     ORDER BY n`,
    [entries.map((entry) => JSON.stringify(entry))],
  );
}
