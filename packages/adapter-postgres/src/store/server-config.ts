import { type ConfigRecord, conflict } from "@berth/engine";
import type { Tx } from "../connection/pools.js";
import { appendChanges } from "./feed-writes.js";

/** The configuration lives in one row; its absence means "never set" (version 0). */
export async function readConfig(tx: Pick<Tx, "rows">, lock = false): Promise<ConfigRecord> {
  const [row] = await tx.rows<{ version: number; values: Record<string, string> }>(
    `SELECT version, values FROM server_config WHERE id = 1${lock ? " FOR UPDATE" : ""}`,
  );
  return row === undefined ? { version: 0, values: {} } : { version: row.version, values: row.values };
}

export async function writeConfig(
  tx: Tx,
  patch: Record<string, string | null>,
  expectedVersion: number | undefined,
): Promise<ConfigRecord> {
  // The row is created once and locked by every writer, so concurrent patches apply one after the other.
  await tx.run("INSERT INTO server_config (id, version, values) VALUES (1, 0, '{}') ON CONFLICT DO NOTHING");
  const current = await readConfig(tx, true);
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
  await tx.run("UPDATE server_config SET version = $1, values = $2 WHERE id = 1", [
    next.version,
    JSON.stringify(values),
  ]);
  await appendChanges(tx, [{ kind: "config" }]);
  return next;
}
