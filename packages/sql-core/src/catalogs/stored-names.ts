import { inList, listParam } from "../runner/lists.js";
import { rowLock } from "../runner/row-locks.js";
import type { SqlRunner } from "../runner/runner.js";

/** The catalog tables a write looks names up in (each keyed by its `name` column). */
export type NamedTable = "groups" | "resource_classes" | "traits";

/**
 * Which of `names` are rows of `table`, share-locked where the dialect has
 * row locks (`FOR KEY SHARE`) so none of them can be deleted before the
 * writer commits.
 */
export async function storedNames(
  db: SqlRunner,
  table: NamedTable,
  names: readonly string[],
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db.all<{ name: string }>(
    `SELECT name FROM ${table} WHERE name IN ${inList(db)}${rowLock(db, "FOR KEY SHARE")}`,
    [listParam(names)],
  );
  return new Set(rows.map((row) => row.name));
}
