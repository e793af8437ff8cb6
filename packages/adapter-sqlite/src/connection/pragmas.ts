/**
 * Connection settings for a local file. WAL lets readers in other processes
 * keep reading while one process writes; `synchronous=NORMAL` is the setting
 * SQLite recommends with WAL (every commit stays atomic and survives a killed
 * process; only a power cut can lose the last commits, never half of one);
 * `busy_timeout` makes a writer wait for another process's write transaction
 * instead of failing at once with SQLITE_BUSY. The 32 MiB page cache (SQLite's
 * default is 2 MiB) holds the index pages a bulk claim inserts into: with
 * 100,000 instances in the file, keyed by random UUIDs, they did not fit and
 * inserts kept re-reading pages. It fills only as pages are touched.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/**
 * SQLite's own busy wait (`busy_timeout`) sleeps on the calling thread, the
 * event loop's: it is kept this short, enough for another process's
 * ordinary transaction to finish, and longer waits are timers between
 * attempts (open-connection.ts), so a stuck writer elsewhere never freezes
 * this process.
 */
export const SYNC_BUSY_WAIT_MS = 5;

export function filePragmaStatements(busyTimeoutMs: number): string[] {
  return [
    // busy_timeout first: switching to WAL needs a brief exclusive lock.
    `PRAGMA busy_timeout = ${Math.min(Math.trunc(busyTimeoutMs), SYNC_BUSY_WAIT_MS)}`,
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA cache_size = -32768",
  ];
}

export const MEMORY_PRAGMA_STATEMENTS = ["PRAGMA foreign_keys = ON"];
