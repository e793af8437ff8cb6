import type {
  CheckReport,
  Claim,
  ClaimResult,
  MemberRootWrite,
  MemberRootWritten,
  Store,
  StoreSnapshot,
} from "@berth/engine";
import {
  checkInvariants,
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
import { ClaimBatcher } from "./claim-batcher.js";
import { DEFAULT_FEED_RETENTION_MS, FEED_HEAD, feedPrunePeriodMs, pruneFeed, SqliteFeed } from "./feed.js";
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
  /** How long change-feed entries are kept (ms). */
  readonly feedRetentionMs: number;
  readonly #claims: ClaimBatcher;
  readonly #pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Connection,
    /** What opening did to the schema (nothing applied when it was already current). */
    readonly migrations: MigrationReport,
    options: SqliteStoreOptions = {},
  ) {
    super(options.now);
    this.feedRetentionMs = options.feedRetentionMs ?? DEFAULT_FEED_RETENTION_MS;
    this.#claims = new ClaimBatcher(connection);
    announceCommittedWrites(connection, this.committedWrites);
    const feed = new SqliteFeed(connection);
    // Old entries go regularly (any process sharing the file may do it; it is idempotent).
    if (connection.location.kind !== "memory") {
      const retentionMs = this.feedRetentionMs;
      this.#pruneTimer = setInterval(() => {
        if (!this.closed) pruneFeed(connection, retentionMs).catch(() => undefined);
      }, feedPrunePeriodMs(retentionMs));
      this.#pruneTimer.unref();
    }
    // Catalog and credential reads are kept while nothing changed the database (ReadCache):
    // placements read profiles, and requests their token or certificate, every time. Every process
    // on the file sees a credential write at once, so there is nothing to announce.
    const tables = transactions(connection);
    const credentials = { ...tables, announce: async () => undefined };
    const catalogs = sqlCatalogs(tables, () => new ReadCache(connection));
    this.useParts({
      ...catalogs,
      feed: {
        read: async (cursor) => {
          this.refuseWhenClosed();
          return feed.read(cursor);
        },
      },
      tokens: new SqlTokenStore(credentials, new ReadCache(connection, true)),
      trust: new SqlTrustStore(credentials, new ReadCache(connection, true)),
      // A consumer claim bumps provider generations: the providers table's kept reads go.
      consumers: new SqlConsumers({
        ...tables,
        write: (work) => tables.write(work).finally(() => catalogs.providers.forget()),
      }),
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
      feedCursor: String((await raw.rows(`SELECT ${FEED_HEAD} AS id`))[0]?.id ?? 0),
    }));
  }

  /** Concurrent claims share one write transaction (see ClaimBatcher); each succeeds or fails on its own. */
  /** A member root's row is a providers row: that table's read cache forgets. */
  override writeMemberRoot(write: MemberRootWrite): Promise<MemberRootWritten> {
    return super.writeMemberRoot(write).finally(() => this.providers.forget());
  }

  async claim(claim: Claim): Promise<ClaimResult> {
    this.refuseWhenClosed();
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

  /** Verifies the store's invariants; see @berth/sql-core's `checkInvariants`. */
  check(): Promise<CheckReport> {
    return this.read((raw) => checkInvariants(sqliteRunner(raw)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.#pruneTimer !== undefined) clearInterval(this.#pruneTimer);
    // Let queued work finish on the connection before closing it.
    await this.connection.read(async () => undefined).catch(() => undefined);
    await this.connection.close();
  }

  protected readRows<T>(work: (db: SqlRunner) => Promise<T>): Promise<T> {
    return this.read((raw) => work(sqliteRunner(raw)));
  }

  protected writeMembers<T>(work: (db: SqlRunner, side: MemberSide) => Promise<T>): Promise<T> {
    return this.write((raw) => work(sqliteRunner(raw), memberSide(raw)));
  }

  private async read<T>(work: Work<T>): Promise<T> {
    this.refuseWhenClosed();
    return this.connection.read(work);
  }

  private async write<T>(work: Work<T>): Promise<T> {
    this.refuseWhenClosed();
    return this.connection.write(work);
  }
}
