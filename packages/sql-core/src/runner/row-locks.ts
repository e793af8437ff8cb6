import type { SqlRunner } from "./runner.js";

/**
 * A row-lock clause (`FOR UPDATE`, `FOR NO KEY UPDATE`, `FOR KEY SHARE`)
 * where the dialect has row locks, nothing in SQLite: its one writer holds
 * the whole file from the transaction's start.
 */
export function rowLock(db: SqlRunner, clause: string): string {
  return db.dialect === "pg" ? ` ${clause}` : "";
}
