/**
 * Brings a PostgreSQL database up to the newest drizzle-kit migration.
 * Several servers starting at once on a fresh database take turns on a
 * transaction-level advisory lock: the first applies everything in one
 * transaction (PostgreSQL's DDL is transactional), the others then find
 * nothing left to do. Applied migrations are recorded in drizzle's own
 * `drizzle.__drizzle_migrations` table, so drizzle-kit tooling agrees.
 */
import { fileURLToPath } from "node:url";
import { type MigrationReport, pendingMigrations } from "@berth/sql-core";
import type { Pools } from "../connection/pools.js";

/** The SQL drizzle-kit generated, shipped with the package (drizzle/ beside dist/ and src/). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Key of the advisory lock migrations hold ("berth" + "migr" as one 64-bit number). */
const MIGRATION_LOCK = "7379226384811534706";

export async function applyMigrations(pools: Pools, folder = MIGRATIONS_FOLDER): Promise<MigrationReport> {
  return pools.writeTx(
    async (tx) => {
      await tx.once("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.once("CREATE SCHEMA IF NOT EXISTS drizzle");
      await tx.once(
        "CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)",
      );
      const [row] = await tx.rows<{ last: string | null }>(
        "SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations",
      );
      const applied: string[] = [];
      for (const { migration, tag } of pendingMigrations(folder, Number(row?.last ?? 0))) {
        for (const statement of migration.sql) if (statement.trim() !== "") await tx.once(statement);
        await tx.once("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [
          migration.hash,
          migration.folderMillis,
        ]);
        applied.push(tag);
      }
      return { applied };
    },
    // A second server racing on a fresh database waits on the lock, never collides.
    { attempts: 1 },
  );
}

export { MigrationError, type MigrationReport } from "@berth/sql-core";
