import { customTraitsOf } from "@berth/engine";
import { inList, listParam } from "../runner/lists.js";
import { rowLock } from "../runner/row-locks.js";
import type { SqlRunner } from "../runner/runner.js";

/**
 * Which custom traits of `traits` are stored (standard traits are built
 * in), for the engine's `requireCustomTraits` in a provider write's
 * transaction. PostgreSQL share-locks the rows found: a trait's delete
 * locks its row (FOR UPDATE) before it looks for holders, so it either
 * waits for this write and then sees the provider holding the trait, or
 * goes first and this read no longer finds the row. SQLite's one writer
 * runs the two one after the other.
 */
export async function foundTraits(db: SqlRunner, traits: readonly string[]): Promise<Set<string>> {
  const custom = customTraitsOf(traits);
  if (custom.length === 0) return new Set();
  const rows = await db.all<{ name: string }>(
    `SELECT name FROM traits WHERE name IN ${inList(db)}${rowLock(db, "FOR KEY SHARE")}`,
    [listParam(custom)],
  );
  return new Set(rows.map((row) => row.name));
}
