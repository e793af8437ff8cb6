import type { CheckReport, Claim, ClaimResult, Store, StoreSnapshot } from "@berth/engine";
import {
  checkInvariants,
  type MemberSide,
  pgRunner,
  readSnapshot,
  SqlConsumers,
  type SqlRunner,
  SqlStoreCore,
  SqlTokenStore,
  type SqlTransactions,
  SqlTrustStore,
  sqlCatalogs,
} from "@berth/sql-core";
import type { Pools, TxWork } from "../connection/pools.js";
import { redactedUrl } from "../connection/store-url.js";
import type { MigrationReport } from "../migrations/apply-migrations.js";
import { ClaimBatcher, type ClaimBatcherOptions } from "./claim-batcher.js";
import { CredentialCache, credentialTables } from "./credential-cache.js";
import { DEFAULT_FEED_RETENTION_MS, FeedListener, postgresFeed, pruneFeed } from "./feed.js";
import { cursorOf } from "./feed-cursor.js";
import { announceCommittedWrites } from "./feed-writes.js";
import { memberSide, transactions } from "./member-side.js";

/** The store's own settings, beside the pools'. */
export interface PostgresStoreOptions {
  /** Clock for `createdAt` of new members (tests). */
  now?: () => string;
  /** How long change-feed entries are kept (ms). Default 15 minutes. */
  feedRetentionMs?: number;
  /** Called with connection errors the store recovers from by itself (logging). */
  onConnectionError?: (error: Error) => void;
  /** Group commit of concurrent creates (claim-batcher.ts); the defaults suit every deployment measured. */
  claimBatches?: ClaimBatcherOptions;
}

/** Another server that notified a write this recently counts as writing now (group commit's delay). */
const OTHERS_WRITING_MS = 1_000;

/** Past this many kept credentials, a cache starts afresh (bounded memory against many distinct ones). */
const MAX_KEPT = 1_000;
/** The longest a certificate's answer is kept, whatever the notifications say (one lost on a live connection). */
const KEEP_CERTIFICATE_MS = 10_000;

/** How often this store prunes old change-feed entries. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The engine's Store port over one PostgreSQL database, shared by any
 * number of berthd servers. Build it with `openPostgresStore`.
 */
export class PostgresStore extends SqlStoreCore implements Store {
  readonly #listener: FeedListener;
  readonly #pruneTimer: NodeJS.Timeout;
  readonly #claims: ClaimBatcher;

  constructor(
    private readonly pools: Pools,
    /** What opening did to the schema. */
    readonly migrations: MigrationReport,
    options: PostgresStoreOptions = {},
  ) {
    super(options.now);
    this.#listener = new FeedListener(pools.url, options.onConnectionError);
    this.#listener.start();
    announceCommittedWrites(pools, this.committedWrites);
    this.#claims = new ClaimBatcher(
      pools,
      () => this.#listener.notify(),
      () => this.#listener.othersWroteWithin(OTHERS_WRITING_MS),
      options.claimBatches,
    );
    // Credentials are kept while the LISTEN connection is up (credential-cache.ts): tokens found by
    // hash (never unknown ones: a token created on another server works at once) and certificates'
    // answers, "not trusted" included, for at most KEEP_CERTIFICATE_MS; lists are read every time.
    const credentials = credentialTables(pools);
    const found = (_key: string, value: unknown) => value !== undefined && !Array.isArray(value);
    const answered = (_key: string, value: unknown) => !Array.isArray(value);
    const tables = transactions(pools);
    // A catalog write that committed wakes the other servers.
    const notified: SqlTransactions["write"] = (work) =>
      tables.write(work).then((result) => {
        this.#listener.notify();
        return result;
      });
    this.useParts({
      ...sqlCatalogs({ ...tables, write: notified }),
      feed: postgresFeed(pools, this.#listener),
      tokens: new SqlTokenStore(credentials, new CredentialCache(this.#listener, MAX_KEPT, found)),
      trust: new SqlTrustStore(
        credentials,
        new CredentialCache(this.#listener, MAX_KEPT, answered, KEEP_CERTIFICATE_MS),
      ),
      consumers: new SqlConsumers(tables),
    });
    const retention = options.feedRetentionMs ?? DEFAULT_FEED_RETENTION_MS;
    this.#pruneTimer = setInterval(() => {
      pruneFeed(pools, retention).catch((error: unknown) =>
        options.onConnectionError?.(error instanceof Error ? error : new Error(String(error))),
      );
    }, PRUNE_EVERY_MS);
    this.#pruneTimer.unref();
  }

  /** Where it lives, without the password. */
  get location(): string {
    return redactedUrl(this.pools.url);
  }

  /** Whether the LISTEN connection is up (wake-ups delivered). */
  get listening(): boolean {
    return this.#listener.live;
  }

  /**
   * The engine's start-up state in ONE repeatable-read transaction, with the
   * change-feed cursor of that same snapshot: every change the snapshot does
   * not include is one the feed will deliver, and none it includes is
   * delivered again.
   */
  snapshot(): Promise<StoreSnapshot> {
    return this.read(async (tx) => {
      // First statement of the transaction: its snapshot is the transaction's.
      const [head] = await tx.rows<{ snapshot: string; now: string }>(
        "SELECT pg_current_snapshot()::text AS snapshot, (extract(epoch from now()) * 1000)::bigint::text AS now",
      );
      return {
        ...(await readSnapshot(pgRunner(tx))),
        feedCursor: cursorOf(head!.snapshot, Number(head!.now)),
      };
    }, true);
  }

  /** Concurrent create claims share one transaction (see ClaimBatcher); each succeeds or fails on its own. */
  async claim(claim: Claim): Promise<ClaimResult> {
    this.refuseWhenClosed();
    return this.#claims.claim(claim);
  }

  /** Verifies the store's invariants on one consistent read; see `checkInvariants`. */
  check(): Promise<CheckReport> {
    return this.read((tx) => checkInvariants(pgRunner(tx)), true);
  }

  /** Deletes change-feed entries older than `retentionMs` (done every minute by itself). */
  pruneFeed(retentionMs: number): Promise<number> {
    this.refuseWhenClosed();
    return pruneFeed(this.pools, retentionMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.#pruneTimer);
    await this.#listener.close();
    await this.pools.close();
  }

  protected readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T> {
    return this.read((tx) => work(pgRunner(tx)));
  }

  protected writeMembers<T>(
    work: (db: SqlRunner, side: MemberSide) => Promise<T>,
    movesFeed = true,
  ): Promise<T> {
    return this.write((tx) => work(pgRunner(tx), memberSide(tx)), movesFeed);
  }

  private async read<T>(work: TxWork<T>, repeatableRead = false): Promise<T> {
    this.refuseWhenClosed();
    return this.pools.readTx(work, { repeatableRead });
  }

  /** A write transaction; on commit the other servers are woken (when it wrote a feed entry). */
  private async write<T>(work: TxWork<T>, movesFeed = true): Promise<T> {
    this.refuseWhenClosed();
    const result = await this.pools.writeTx(work);
    if (movesFeed) this.#listener.notify();
    return result;
  }
}
