/**
 * Moving records from an older berthd's file into the database, once, as
 * several servers may do at the same start: a record another server
 * imported first is skipped, and only one of them renames the file.
 */
import { renameSync } from "node:fs";

/** Runs `add` for each item; a conflict (already imported by another server) is skipped. Answers how many were added. */
export async function importEach<T>(items: readonly T[], add: (item: T) => Promise<void>): Promise<number> {
  let imported = 0;
  for (const item of items) {
    try {
      await add(item);
      imported += 1;
    } catch (error) {
      if ((error as { kind?: unknown }).kind !== "conflict") throw error;
    }
  }
  return imported;
}

/** Renames `file` to `<file>.imported` so it is never read again (a record removed later must not come back). */
export function markImported(file: string): void {
  try {
    renameSync(file, `${file}.imported`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
  }
}
