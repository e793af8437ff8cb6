import {
  type ChangeFeed,
  type CheckReport,
  type Claim,
  type ClaimResult,
  EngineError,
  type MemberRootWrite,
  type MemberRootWritten,
  type Store,
  type StoreSnapshot,
} from "@berth/engine";
import {
  type MemberSide,
  readSnapshot,
  SqlConsumers,
  type SqlRunner,
  SqlStoreCore,
  SqlTokenStore,
  SqlTrustStore,
  sqlCatalogs,
  sqliteRunner,
} from "@berth/sql-core";
import type { Connection, Work } from "../connection/open-connection.js";
import type { StoreLocation } from "../connection/store-url.js";
import type { MigrationReport } from "../migrations/apply-migrations.js";
import { checkStore } from "./check.js";
import { ClaimBatcher } from "./claim-batcher.js";
import { DEFAULT_FEED_RETENTION_MS, feedPrunePeriodMs, pruneFeed, SqliteFeed } from "./feed.js";
import { announceCommittedWrites } from "./feed-writes.js";
import { memberSide, transactions } from "./member-side.js";
import { ReadCache } from "./read-cache.js";

/** The shape of a Placement provider uuid. */
const PROVIDER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The store's own settings, beside the connection's. */
export interface SqliteStoreOptions {
  /** Clock for `createdAt` of new members (tests). */
  now?: () => string;
  /** How long change-feed entries are kept (ms). Default 15 minutes (DEFAULT_FEED_RETENTION_MS). */
  feedRetentionMs?: number;
}

/** The engine's Store port over one SQLite/libSQL database. Build it with `openStore`. */
export class SqliteStore extends SqlStoreCore implements Store {
  readonly consumers: SqlConsumers;
  #closed = false;
  protected readonly now: () => string;
  /** How long change-feed entries are kept (ms). */
  readonly feedRetentionMs: number;
  readonly #claims: ClaimBatcher;
  readonly #pruneTimer: NodeJS.Timeout | undefined;
  /** See the engine's store/change-feed.ts and ./feed.ts. */
  readonly feed: ChangeFeed;
  /** The server's API tokens, in this database (not part of the engine's Store port). */
  readonly tokens: SqlTokenStore;
  /** berthd's trusted client certificates and pending trust tokens (not part of the engine's Store port). */
  readonly trust: SqlTrustStore;

  constructor(
    private readonly connection: Connection,
    /** What opening did to the schema (nothing applied when it was already current). */
    readonly migrations: MigrationReport,
    options: SqliteStoreOptions = {},
  ) {
    super();
    this.now = options.now ?? (() => new Date().toISOString());
    this.feedRetentionMs = options.feedRetentionMs ?? DEFAULT_FEED_RETENTION_MS;
    this.#claims = new ClaimBatcher(connection);
    announceCommittedWrites(connection, this.committedWrites);
    const feed = new SqliteFeed(connection);
    this.feed = { read: (cursor) => (this.#closed ? Promise.reject(closedError()) : feed.read(cursor)) };
    // Old entries go regularly (any process sharing the file may do it; it is idempotent).
    if (connection.location.kind !== "memory") {
      const retentionMs = this.feedRetentionMs;
      this.#pruneTimer = setInterval(() => {
        if (!this.#closed) pruneFeed(connection, retentionMs).catch(() => undefined);
      }, feedPrunePeriodMs(retentionMs));
      this.#pruneTimer.unref();
    }
    // Catalog and credential reads are kept while nothing changed the database (ReadCache):
    // placements read profiles, and requests their token or certificate, every time. Every process
    // on the file sees a credential write at once, so there is nothing to announce.
    const tables = transactions(connection);
    const credentials = { ...tables, announce: async () => undefined };
    this.tokens = new SqlTokenStore(credentials, new ReadCache(connection));
    this.trust = new SqlTrustStore(credentials, new ReadCache(connection));
    const catalogs = sqlCatalogs(tables, () => new ReadCache(connection));
    this.useCatalogs(catalogs);
    // A consumer claim bumps provider generations: the providers table's kept reads go.
    this.consumers = new SqlConsumers({
      ...tables,
      write: (work) => tables.write(work).finally(() => catalogs.providers.forget()),
    });
  }

  /** Where this store lives (file, memory or remote). */
  get location(): StoreLocation {
    return this.connection.location;
  }

  /** One read transaction: the aggregates and the feed cursor of the same state. */
  snapshot(): Promise<StoreSnapshot> {
    return this.read(async (raw) => ({
      ...(await readSnapshot(sqliteRunner(raw))),
      feedCursor: await SqliteFeed.head(raw),
    }));
  }

  /** Concurrent claims share one write transaction (see ClaimBatcher); each succeeds or fails on its own. */
  /** A member root's row is a providers row: that table's read cache forgets. */
  override writeMemberRoot(write: MemberRootWrite): Promise<MemberRootWritten> {
    return super.writeMemberRoot(write).finally(() => this.providers.forget());
  }

  claim(claim: Claim): Promise<ClaimResult> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#claims.claim(claim).then((result) => {
      // A claim on a child provider moved its generation (engine instance-consumers.ts); its usage
      // is keyed by the provider's uuid (a member's by name, so a uuid-like member name only costs a reread).
      if (result.effect.usage.some(([provider]) => PROVIDER_UUID.test(provider))) this.providers.forget();
      return result;
    });
  }

  /** Deletes change-feed entries older than `retentionMs` (every process does it regularly: feedPrunePeriodMs). */
  pruneFeed(retentionMs: number): Promise<number> {
    return pruneFeed(this.connection, retentionMs);
  }

  /** Verifies the store's invariants; see `checkStore`. */
  check(): Promise<CheckReport> {
    return this.read((raw) => checkStore(sqliteRunner(raw)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#pruneTimer !== undefined) clearInterval(this.#pruneTimer);
    // Let queued work finish on the connection before closing it.
    await this.connection.read(async () => undefined).catch(() => undefined);
    this.connection.close();
  }

  protected readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T> {
    return this.read((raw) => work(sqliteRunner(raw)));
  }

  protected writeMembers<T>(work: (db: SqlRunner, side: MemberSide) => Promise<T>): Promise<T> {
    return this.write((raw) => work(sqliteRunner(raw), memberSide(raw)));
  }

  private read<T>(work: Work<T>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError());
    return this.connection.read(work);
  }

  private write<T>(work: Work<T>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError());
    return this.connection.write(work);
  }
}

function closedError(): EngineError {
  return new EngineError("internal", "store is closed");
}
