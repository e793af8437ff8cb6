import type { CheckReport, Violation } from "@berth/engine";
import { checkInvariants, type SqlRunner } from "@berth/sql-core";

/**
 * @berth/sql-core's consistency check plus what only SQLite needs: rows
 * that refer to a missing row (SQLite's `foreign_key_check`; PostgreSQL
 * enforces every foreign key, so it has none to find).
 */
export function checkStore(db: SqlRunner): Promise<CheckReport> {
  return checkInvariants(db, () => orphanRows(db));
}

async function orphanRows(db: SqlRunner): Promise<Violation[]> {
  return (await db.all("PRAGMA foreign_key_check")).map((row) => ({
    kind: "orphan_row",
    // WITHOUT ROWID tables (allocations, profile links) report no rowid.
    message: `${row.rowid === null ? "A row" : `Row ${row.rowid}`} of ${row.table} refers to a missing row of ${row.parent}`,
    details: row,
  }));
}
