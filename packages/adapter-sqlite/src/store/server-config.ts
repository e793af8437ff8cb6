import { type ConfigRecord, conflict } from "@berth/engine";
import { eq } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { serverConfig } from "../schema/index.js";
import { appendChanges } from "./feed-writes.js";

/** The configuration lives in one row; its absence means "never set" (version 0). */
const CONFIG_ROW = 1;

export async function readConfig(db: Database): Promise<ConfigRecord> {
  const [row] = await db.select().from(serverConfig).where(eq(serverConfig.id, CONFIG_ROW));
  return row === undefined ? { version: 0, values: {} } : { version: row.version, values: row.values };
}

export async function readConfigVersion(db: Database): Promise<number> {
  const [row] = await db
    .select({ version: serverConfig.version })
    .from(serverConfig)
    .where(eq(serverConfig.id, CONFIG_ROW));
  return row?.version ?? 0;
}

export async function writeConfig(
  db: Database,
  raw: RawSql,
  patch: Record<string, string | null>,
  expectedVersion: number | undefined,
): Promise<ConfigRecord> {
  const current = await readConfig(db);
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
  await db
    .insert(serverConfig)
    .values({ id: CONFIG_ROW, ...next })
    .onConflictDoUpdate({ target: serverConfig.id, set: next });
  await appendChanges(raw, [{ kind: "config" }]);
  return next;
}
