/**
 * Appends change-feed entries inside the writing transaction. It must be
 * the transaction's last statement: the entry's id is drawn here, after
 * every lock the transaction took, so a writer that waited for another's
 * locks always gets the higher id (see schema/feed.ts). Every entry's
 * parameter is made here (`feedEntriesParameter`, also for a claim's own
 * statement), so this is also where the store learns what each transaction
 * appended: once it commits, its listeners are told (`Store.onCommittedWrite`).
 */
import type { ChangeEntry, CommittedWrites } from "@berth/engine";
import type { Pools, Tx } from "../connection/pools.js";

/** What each open write transaction appended, by its `tx` (one per attempt: a retried one starts afresh). */
const appendedBy = new WeakMap<Pick<Tx, "run">, ChangeEntry[]>();

/** The insert, entries in parameter `$<param>`, without its `ORDER BY n` (a caller may add a WHERE first). */
export function appendChangesSql(param: number): string {
  return `INSERT INTO change_log (entry, at) SELECT e, clock_timestamp() FROM unnest($${param}::jsonb[]) WITH ORDINALITY AS t(e, n)`;
}

/** The parameter of `appendChangesSql` for `entries`, which `tx` then appends. */
export function feedEntriesParameter(tx: Pick<Tx, "run">, entries: readonly ChangeEntry[]): string[] {
  const appended = appendedBy.get(tx);
  if (appended === undefined) appendedBy.set(tx, [...entries]);
  else appended.push(...entries);
  return entries.map((entry) => JSON.stringify(entry));
}

export async function appendChanges(tx: Pick<Tx, "run">, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.run(`${appendChangesSql(1)} ORDER BY n`, [feedEntriesParameter(tx, entries)]);
}

/** Tells `writes` what each committed transaction of `pools` appended. */
export function announceCommittedWrites(pools: Pools, writes: CommittedWrites): void {
  pools.afterCommit((tx) => {
    const appended = appendedBy.get(tx);
    if (appended !== undefined) writes.committed(appended);
  });
}
