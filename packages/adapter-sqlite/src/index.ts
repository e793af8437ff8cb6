/**
 * @berth/adapter-sqlite: the engine's Store on one SQLite file (libSQL), for a
 * single berthd. `openStore(url)` opens or creates the file and applies the
 * migrations.
 *
 * @module @berth/adapter-sqlite
 */
export type { CheckReport, Violation, ViolationKind } from "@berth/engine";
export {
  type ApiTokenRecord,
  SqlTokenStore as SqliteTokenStore,
  SqlTrustStore as SqliteTrustStore,
  type TrustedCertificateRecord,
  type TrustTokenRecord,
} from "@berth/sql-core";
export { DEFAULT_BUSY_TIMEOUT_MS } from "./connection/pragmas.js";
export { parseStoreUrl, type StoreLocation, StoreUrlError } from "./connection/store-url.js";
export {
  applyMigrations,
  MIGRATIONS_FOLDER,
  MigrationError,
  type MigrationReport,
} from "./migrations/apply-migrations.js";
export { type OpenStoreOptions, openStore } from "./open-store.js";
export { DEFAULT_FEED_RETENTION_MS } from "./store/feed.js";
export { SqliteStore, type SqliteStoreOptions } from "./store/sqlite-store.js";
