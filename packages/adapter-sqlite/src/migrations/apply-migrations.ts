import { fileURLToPath } from "node:url";
import { MigrationError, type MigrationReport, pendingMigrations } from "@berth/sql-core";
import type { SqlClient } from "../connection/local-client.js";
import { DATA_STEPS, stepName } from "./data-steps.js";

/** The SQL drizzle-kit generated, shipped with the package (drizzle/ beside dist/ and src/). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Same table and layout drizzle's own migrator uses, so drizzle-kit tooling agrees with us. */
const MIGRATIONS_TABLE = "__drizzle_migrations";

/**
 * Brings the database up to the newest migration, idempotently and safely
 * when several processes open the same fresh file at once: the pending list
 * is decided inside a write transaction (BEGIN IMMEDIATE), so a second
 * process waits for the first and then finds nothing left to do. Each run
 * is all-or-nothing.
 */
export async function applyMigrations(
  client: SqlClient,
  options: { folder?: string | undefined; local: boolean } = { local: true },
): Promise<MigrationReport> {
  const folder = options.folder ?? MIGRATIONS_FOLDER;
  // Table rebuilds in drizzle-kit's SQLite migrations drop and recreate tables;
  // foreign keys are switched off around the transaction (they cannot change
  // inside one) and verified with foreign_key_check before commit instead.
  if (options.local) await client.execute("PRAGMA foreign_keys = OFF");
  try {
    const tx = await client.transaction("write");
    try {
      await tx.execute(
        `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
      );
      const recorded = await tx.execute(`SELECT hash, created_at FROM ${MIGRATIONS_TABLE}`);
      const lastApplied = Math.max(0, ...recorded.rows.map((row) => Number(row.created_at)));
      const applied: string[] = [];
      for (const { migration, tag } of pendingMigrations(folder, lastApplied)) {
        for (const statement of migration.sql) {
          if (statement.trim() !== "") await tx.execute(statement);
        }
        await DATA_STEPS[stepName(tag)]?.(tx);
        await tx.execute({
          sql: `INSERT INTO ${MIGRATIONS_TABLE} (hash, created_at) VALUES (?, ?)`,
          args: [migration.hash, migration.folderMillis],
        });
        applied.push(tag);
      }
      if (applied.length > 0 && options.local) {
        const broken = await tx.execute("PRAGMA foreign_key_check");
        if (broken.rows.length > 0) {
          throw new MigrationError(
            `Migration ${applied.join(", ")} left ${broken.rows.length} rows violating foreign keys (first in table ${String(broken.rows[0]?.table)})`,
          );
        }
      }
      await tx.commit();
      return { applied };
    } finally {
      tx.close();
    }
  } finally {
    if (options.local) await client.execute("PRAGMA foreign_keys = ON");
  }
}

export { MigrationError, type MigrationReport };
