/**
 * The change feed over SQLite: a cursor is the last id read. Reading is one
 * read transaction, and none at all while no other connection committed
 * (`PRAGMA data_version`, read once per event-loop turn): the answer is then
 * what this store's own writes appended since the last read, which it keeps
 * as they commit (store/feed-writes.ts). An engine reads the feed before
 * every placement, so after each of its own creates it would otherwise read
 * back its own claim's entry: four statements and a JSON parse per create.
 */
import type { ChangeEntry, FeedRead } from "@berth/engine";
import type { Connection } from "../connection/open-connection.js";
import { type AppendedRow, onCommittedAppends } from "./feed-writes.js";

/**
 * How long entries are kept (ms); a reader whose cursor is older re-hydrates from a snapshot.
 * Fifteen minutes covers a server restarting or a network pause; one away longer reloads everything.
 */
export const DEFAULT_FEED_RETENTION_MS = 15 * 60_000;

/**
 * How often old entries go: a quarter of the retention, so the log holds at most 1.25 retentions'
 * worth, but never more often than each second (a write each time) nor less than each minute.
 */
export function feedPrunePeriodMs(retentionMs: number): number {
  return Math.min(60_000, Math.max(1_000, Math.round(retentionMs / 4)));
}

/**
 * Own entries kept for the next read at most: a store that writes and never
 * reads its feed (no engine on it) must not grow; past this the next read
 * goes to the database again.
 */
const MAX_KEPT_OWN_ENTRIES = 10_000;

export class SqliteFeed {
  /** The database state at the last read and the cursor it ended at. */
  #last: { key: string; cursor: string } | undefined;
  /**
   * Entries this store's writes appended after the last read's cursor, in
   * id order; undefined once more were appended than are kept (or pruned),
   * until a read from the database starts the tail afresh.
   */
  #ownTail: AppendedRow[] | undefined = [];

  constructor(private readonly connection: Connection) {
    onCommittedAppends(connection, ({ rows }) => {
      if (this.#ownTail === undefined) return;
      if (this.#ownTail.length + rows.length > MAX_KEPT_OWN_ENTRIES) this.#ownTail = undefined;
      else this.#ownTail.push(...rows);
    });
  }

  async read(cursor: string): Promise<FeedRead> {
    const after = Number(cursor);
    if (!Number.isSafeInteger(after)) throw new Error(`Not a SQLite change-feed cursor: "${cursor}"`);
    // Moves when another connection commits; this store's own commits are in #ownTail.
    const key = await this.connection.dataVersion();
    if (key !== undefined && this.#last?.key === key && this.#last.cursor === cursor) {
      const own = this.#ownEntriesAfter(after);
      if (own !== undefined) return this.#answered(own, cursor);
    }
    // Own entries are kept again from before the read starts (not after it ends): one that commits
    // while the read's answer is on its way must not be lost between the two.
    this.#ownTail ??= [];
    const read = await this.connection.read(async (raw) => {
      const [horizon] = await raw.rows("SELECT pruned_through FROM feed_horizon WHERE id = 1");
      if (horizon !== undefined && Number(horizon.pruned_through) > after) {
        return { entries: [], cursor: await SqliteFeed.head(raw), reset: true as const };
      }
      const rows = await raw.rows("SELECT id, entry FROM change_log WHERE id > ? ORDER BY id", [after]);
      const entries = rows.map((row) => JSON.parse(String(row.entry)) as ChangeEntry);
      const last = rows[rows.length - 1];
      return { entries, cursor: last === undefined ? cursor : String(last.id) };
    });
    // Everything up to the read's cursor came from the database: keep only own entries after it
    // (none kept if more than MAX_KEPT_OWN_ENTRIES came meanwhile: the next read goes to the database).
    const through = Number(read.cursor);
    this.#ownTail = this.#ownTail?.filter((row) => row.id > through);
    this.#last = key !== undefined && read.reset === undefined ? { key, cursor: read.cursor } : undefined;
    return read;
  }

  /**
   * This store's entries after `after`, when they are all that was appended
   * since: their ids follow on from the cursor without a gap (SQLite's one
   * writer numbers entries in commit order, so an entry of another
   * connection between them would leave one). Undefined: read the database.
   */
  #ownEntriesAfter(after: number): AppendedRow[] | undefined {
    const tail = this.#ownTail;
    if (tail === undefined) return undefined;
    for (let i = 0; i < tail.length; i++) if (tail[i]!.id !== after + 1 + i) return undefined;
    return tail;
  }

  /** The read of `rows` (parsed, as a read of the log gives them), moving the kept cursor past them. */
  #answered(rows: AppendedRow[], cursor: string): FeedRead {
    if (rows.length === 0) return { entries: [], cursor };
    const next = String(rows[rows.length - 1]!.id);
    this.#ownTail = [];
    this.#last = { key: this.#last!.key, cursor: next };
    return { entries: rows.map((row) => JSON.parse(row.text) as ChangeEntry), cursor: next };
  }

  /** Deletes entries older than `retentionMs`; the next read goes to the database (it may have to reset). */
  async prune(retentionMs: number): Promise<number> {
    const removed = await pruneFeed(this.connection, retentionMs);
    this.#ownTail = undefined;
    this.#last = undefined;
    return removed;
  }

  /** The cursor of the current state (inside a snapshot's read transaction). */
  static async head(raw: { rows(sql: string): Promise<Record<string, unknown>[]> }): Promise<string> {
    const [row] = await raw.rows("SELECT coalesce(max(id), 0) AS id FROM change_log");
    return String(row?.id ?? 0);
  }
}

/** Deletes entries older than `retentionMs` and records the highest id removed. */
export async function pruneFeed(connection: Connection, retentionMs: number): Promise<number> {
  return connection.write(async (raw) => {
    const cutoff = Date.now() - retentionMs;
    const [row] = await raw.rows("SELECT max(id) AS id FROM change_log WHERE at < ?", [cutoff]);
    if (row?.id === null || row?.id === undefined) return 0;
    await raw.run(
      "INSERT INTO feed_horizon (id, pruned_through) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)",
      [Number(row.id)],
    );
    return raw.run("DELETE FROM change_log WHERE id <= ?", [Number(row.id)]);
  });
}
