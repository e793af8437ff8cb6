/**
 * Brings a PostgreSQL database up to the newest drizzle-kit migration.
 * Several servers starting at once on a fresh database take turns on a
 * transaction-level advisory lock: the first applies everything in one
 * transaction (PostgreSQL's DDL is transactional), the others then find
 * nothing left to do. Applied migrations are recorded in drizzle's own
 * `drizzle.__drizzle_migrations` table, so drizzle-kit tooling agrees.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Pools } from "../connection/pools.js";

/** The SQL drizzle-kit generated, shipped with the package (drizzle/ beside dist/ and src/). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Key of the advisory lock migrations hold ("berth" + "migr" as one 64-bit number). */
const MIGRATION_LOCK = "7379226384811534706";

export class MigrationError extends Error {
  readonly kind = "internal" as const;
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

export interface MigrationReport {
  /** Tags (file names without .sql) applied by this call, oldest first. */
  applied: string[];
}

export async function applyMigrations(pools: Pools, folder = MIGRATIONS_FOLDER): Promise<MigrationReport> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const tags = readTags(folder);
  const newestKnown = Math.max(0, ...migrations.map((m) => m.folderMillis));
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
      const lastApplied = Number(row?.last ?? 0);
      if (lastApplied > newestKnown) {
        throw new MigrationError(
          `The database was written by a newer version of Berth (schema migration from ${new Date(lastApplied).toISOString()}); upgrade Berth to open it`,
        );
      }
      const applied: string[] = [];
      for (const [index, migration] of migrations.entries()) {
        if (migration.folderMillis <= lastApplied) continue;
        for (const statement of migration.sql) if (statement.trim() !== "") await tx.once(statement);
        await tx.once("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)", [
          migration.hash,
          migration.folderMillis,
        ]);
        applied.push(tags[index] ?? String(migration.folderMillis));
      }
      return { applied };
    },
    // A second server racing on a fresh database waits on the lock, never collides.
    { attempts: 1 },
  );
}

function readTags(folder: string): string[] {
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}
