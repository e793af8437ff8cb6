/**
 * The change feed over PostgreSQL (see the engine's store/change-feed.ts
 * and this package's README). Reading: one statement returns the rows of
 * every transaction the reader's last snapshot did not see, with the new
 * snapshot, so no commit is ever skipped whatever order transaction ids
 * were drawn in. Waking: one LISTEN connection per store; after this
 * store's writes commit, one NOTIFY (coalesced) on the same connection. The
 * NOTIFY is sent after commit, outside the writing transaction: PostgreSQL
 * serializes the commits of transactions that NOTIFY, which would make
 * every claim of every server wait for the previous one's commit.
 */
import type { ChangeEntry, ChangeFeed, FeedRead, FeedWatch } from "@berth/engine";
import pg from "pg";
import type { Pools } from "../connection/pools.js";
import { cursorOf, parseCursor } from "./feed-cursor.js";

/**
 * Why kept answers are in doubt: another server `changed` credentials, the LISTEN connection was
 * `lost` (notifications may be missed from now on), or it is `back` (some may have been missed).
 */
export type CredentialsEvent = "changed" | "lost" | "back";

/**
 * The LISTEN/NOTIFY channel on which a server says it committed something: a wake-up to read the
 * change feed, never the change itself.
 */
export const FEED_CHANNEL = "berth_changes";
/**
 * Notified in the same transaction as any change to `api_tokens` or `trusted_certificates` (rare:
 * token create, edit, revoke; certificate trusted, changed, removed): servers drop what they kept.
 */
export const TOKENS_CHANNEL = "berth_tokens";

/** How long entries are kept; a reader whose last read is older re-hydrates. */
export const DEFAULT_FEED_RETENTION_MS = 15 * 60_000;

export async function readFeed(pools: Pools, cursor: string): Promise<FeedRead> {
  const { snapshot, atMs } = parseCursor(cursor);
  const [row] = await pools.query<{ snapshot: string; now: string; horizon: string | null; entries: string }>(
    `SELECT pg_current_snapshot()::text AS snapshot, (extract(epoch from now()) * 1000)::bigint::text AS now,
            (SELECT (extract(epoch from pruned_before) * 1000)::bigint::text FROM feed_horizon WHERE name = 'feed') AS horizon,
            coalesce((SELECT json_agg(entry ORDER BY id) FROM change_log
                      WHERE xid >= pg_snapshot_xmin($1::pg_snapshot)
                        AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot)), '[]')::text AS entries`,
    [snapshot],
  );
  const next = cursorOf(row!.snapshot, Number(row!.now));
  if (row!.horizon !== null && Number(row!.horizon) > atMs) return { entries: [], cursor: next, reset: true };
  return { entries: JSON.parse(row!.entries) as ChangeEntry[], cursor: next };
}

/** Deletes entries older than the retention, and records how far it went. */
export async function pruneFeed(pools: Pools, retentionMs: number): Promise<number> {
  return pools.writeTx(async (tx) => {
    const [cutoff] = await tx.rows<{ at: Date }>("SELECT now() - $1 * interval '1 millisecond' AS at", [
      retentionMs,
    ]);
    await tx.run(
      `INSERT INTO feed_horizon (name, pruned_before) VALUES ('feed', $1)
       ON CONFLICT (name) DO UPDATE SET pruned_before = greatest(feed_horizon.pruned_before, excluded.pruned_before)`,
      [cutoff!.at],
    );
    return tx.run("DELETE FROM change_log WHERE at < $1", [cutoff!.at]);
  });
}

/**
 * The LISTEN connection: wakes watchers on other servers' notifications,
 * sends this store's own (coalesced: at most one in flight, one queued),
 * and reconnects with a growing pause when the connection is lost. While
 * it is down, `live()` is false and engines read the feed before every
 * operation instead of waiting to be woken.
 */
export class FeedListener {
  #client: pg.Client | undefined;
  #live = false;
  #closed = false;
  #backendPid = -1;
  #retryMs = 100;
  #retryTimer: NodeJS.Timeout | undefined;
  readonly #watchers = new Set<() => void>();
  readonly #tokenWatchers = new Set<(event: CredentialsEvent) => void>();
  #notifying = false;
  #notifyQueued = false;
  /** When another server's notification last arrived (performance.now()). */
  #othersWroteAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly url: string,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  /** Connects (call once); failures are retried in the background. */
  start(): void {
    void this.connect();
  }

  get live(): boolean {
    return this.#live;
  }

  /** Whether another server notified a write of its own within the last `ms` (group commit's delay). */
  othersWroteWithin(ms: number): boolean {
    return performance.now() - this.#othersWroteAt <= ms;
  }

  private async connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "berth-feed",
      keepAlive: true,
    });
    const lost = (error?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#live = false;
      this.tokensChanged("lost");
      if (error !== undefined) this.onError(error);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on("error", (error) => lost(error));
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel === TOKENS_CHANNEL) return this.tokensChanged("changed");
      if (message.processId === this.#backendPid) return;
      this.#othersWroteAt = performance.now();
      this.wakeAll();
    });
    this.#client = client;
    try {
      await client.connect();
      // This connection only LISTENs and NOTIFYs: a notification is a wake-up, its commit need not
      // wait for the disk (a NOTIFY takes a transaction id, so its commit would otherwise be fsynced).
      await client.query(`SET synchronous_commit = off; LISTEN ${FEED_CHANNEL}; LISTEN ${TOKENS_CHANNEL}`);
      // Our own NOTIFYs come back from this backend: they wake no one here.
      this.#backendPid = (client as unknown as { processID: number }).processID;
      if (this.#client !== client) return;
      this.#live = true;
      this.#retryMs = 100;
      // Whatever was committed while we were not listening: read it now.
      this.wakeAll();
      this.tokensChanged("back");
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private scheduleReconnect(): void {
    if (this.#closed || this.#retryTimer !== undefined) return;
    const delay = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, 5_000);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.connect();
    }, delay);
    this.#retryTimer.unref();
  }

  private wakeAll(): void {
    for (const wake of this.#watchers) wake();
  }

  private tokensChanged(event: CredentialsEvent): void {
    for (const changed of this.#tokenWatchers) changed(event);
  }

  /**
   * `changed` is called when any server changed `api_tokens` ("changed"),
   * and whenever the connection is lost ("lost") or comes back ("back": a
   * notification may have been missed meanwhile). While `live` is false,
   * nothing is told.
   */
  watchTokens(changed: (event: CredentialsEvent) => void): void {
    this.#tokenWatchers.add(changed);
  }

  watch(wake: () => void): FeedWatch {
    this.#watchers.add(wake);
    return {
      live: () => this.#live,
      stop: () => {
        this.#watchers.delete(wake);
      },
    };
  }

  /** After a commit of this store: tell the other servers (coalesced). */
  notify(): void {
    if (this.#notifying) {
      this.#notifyQueued = true;
      return;
    }
    const client = this.#client;
    if (client === undefined || !this.#live) return;
    this.#notifying = true;
    // One statement on a connection whose commits do not wait for the disk (see connect()).
    client
      .query(`NOTIFY ${FEED_CHANNEL}`)
      .catch(() => undefined)
      .finally(() => {
        this.#notifying = false;
        if (this.#notifyQueued) {
          this.#notifyQueued = false;
          this.notify();
        }
      });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#live = false;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}

export function postgresFeed(pools: Pools, listener: FeedListener): ChangeFeed {
  return {
    read: (cursor) => readFeed(pools, cursor),
    watch: (wake) => listener.watch(wake),
  };
}
