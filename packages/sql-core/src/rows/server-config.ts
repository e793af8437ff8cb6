import { type ConfigRecord, conflict } from "@berth/engine";
import { rowLock } from "../runner/row-locks.js";
import { first, type SqlRunner } from "../runner/runner.js";
import { jsonParam, jsonValue } from "../runner/values.js";

/*
 * The server configuration lives in one row (id 1); its absence means
 * "never set" (version 0).
 */

/**
 * `forUpdate` locks the row where the dialect has row locks (PostgreSQL);
 * SQLite's writers hold the whole file already.
 */
export async function readConfig(db: SqlRunner, forUpdate = false): Promise<ConfigRecord> {
  const lock = forUpdate ? rowLock(db, "FOR UPDATE") : "";
  const row = await first(db, `SELECT version, "values" FROM server_config WHERE id = 1${lock}`);
  return row === undefined
    ? { version: 0, values: {} }
    : { version: Number(row.version), values: jsonValue<Record<string, string>>(row.values) };
}

export async function readConfigVersion(db: SqlRunner): Promise<number> {
  const row = await first(db, "SELECT version FROM server_config WHERE id = 1");
  return row === undefined ? 0 : Number(row.version);
}

/**
 * Applies `patch` (null removes a key) and bumps the version; conflict when
 * `expectedVersion` is given and stale. The caller appends the change-feed
 * entry in the same transaction.
 */
export async function writeConfig(
  db: SqlRunner,
  patch: Record<string, string | null>,
  expectedVersion: number | undefined,
): Promise<ConfigRecord> {
  // The row is created once and locked by every writer, so concurrent patches apply one after the other.
  await db.run(
    `INSERT INTO server_config (id, version, "values") VALUES (1, 0, '{}') ON CONFLICT DO NOTHING`,
  );
  const current = await readConfig(db, true);
  if (expectedVersion !== undefined && expectedVersion !== current.version) {
    throw conflict(
      `Server configuration changed concurrently (version ${current.version}, expected ${expectedVersion})`,
    );
  }
  const values = { ...current.values };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete values[key];
    else values[key] = value;
  }
  const next = { version: current.version + 1, values };
  await db.run(`UPDATE server_config SET version = ?, "values" = ? WHERE id = 1`, [
    next.version,
    jsonParam(values),
  ]);
  return next;
}
