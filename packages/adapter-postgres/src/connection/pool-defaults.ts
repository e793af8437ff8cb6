/** The pools' defaults (pools.ts), apart from pg so berthd reads them without loading it (settings.ts). */

/** Default `poolSize`: connections for writes. */
export const DEFAULT_POOL_SIZE = 10;
/** Default `readPoolSize`: connections for reads. */
export const DEFAULT_READ_POOL_SIZE = 4;
/** Default `lockTimeoutMs` (berthd `--db-lock-timeout`). */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
/** Default `statementTimeoutMs` (berthd `--db-statement-timeout`). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/**
 * Default `idleInTransactionTimeoutMs`: long enough for any claim, short enough that a stopped
 * server frees its locks soon.
 */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 15_000;
/** Default `connectTimeoutMs`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
