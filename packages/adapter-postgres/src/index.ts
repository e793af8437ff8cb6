/**
 * @berth/adapter-postgres: the engine's Store on PostgreSQL, shared by several
 * berthd processes. `openPostgresStore(url)` connects, migrates and starts
 * following the change feed.
 *
 * @module @berth/adapter-postgres
 */
export type { CheckReport, Violation, ViolationKind } from "@berth/engine";
export {
  type ApiTokenRecord,
  SqlTokenStore as PostgresTokenStore,
  SqlTrustStore as PostgresTrustStore,
  type TrustedCertificateRecord,
  type TrustTokenRecord,
} from "@berth/sql-core";
export * from "./connection/pool-defaults.js";
export type { PoolOptions } from "./connection/pools.js";
export { isPostgresUrl, PostgresUrlError, parsePostgresUrl, redactedUrl } from "./connection/store-url.js";
export { MIGRATIONS_FOLDER, MigrationError, type MigrationReport } from "./migrations/apply-migrations.js";
export { type OpenPostgresStoreOptions, openPostgresStore } from "./open-store.js";
export { COMMIT_DELAY_MS } from "./store/batch-turns.js";
export type { ClaimBatcherOptions } from "./store/claim-batcher.js";
export { DEFAULT_FEED_RETENTION_MS, FEED_CHANNEL } from "./store/feed.js";
export { PostgresStore, type PostgresStoreOptions } from "./store/postgres-store.js";
