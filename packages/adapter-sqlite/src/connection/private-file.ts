import { closeSync, openSync } from "node:fs";

/**
 * Creates the database file readable and writable by its owner only (0600)
 * when it does not exist yet. SQLite would create it with the process's
 * umask (usually 0644: world-readable tokens hashes and cluster data), and
 * it gives the `-wal` and `-shm` files the database file's own mode, so
 * creating the file first is enough for all three. An existing file keeps
 * the mode its operator chose.
 */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, "wx", 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
