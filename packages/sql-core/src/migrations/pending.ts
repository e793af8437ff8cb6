import { readFileSync } from "node:fs";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";

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

export interface PendingMigration {
  /** drizzle-kit's statements, hash and timestamp (what drizzle's `__drizzle_migrations` records). */
  migration: MigrationMeta;
  /** The file name without .sql. */
  tag: string;
}

/**
 * The migrations drizzle-kit generated in `folder` that came after the
 * newest one the database recorded (`lastApplied`, drizzle's `created_at`),
 * oldest first. A database recorded by a newer Berth is refused: its schema
 * is one this code does not know.
 */
export function pendingMigrations(folder: string, lastApplied: number): PendingMigration[] {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const newestKnown = Math.max(0, ...migrations.map((m) => m.folderMillis));
  if (lastApplied > newestKnown) {
    throw new MigrationError(
      `The database was written by a newer version of Berth (schema migration from ${new Date(lastApplied).toISOString()}); upgrade Berth to open it`,
    );
  }
  // readMigrationFiles has already validated the journal; it only drops the tags.
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, "utf8")) as {
    entries: { tag: string }[];
  };
  return migrations.flatMap((migration, index) =>
    migration.folderMillis <= lastApplied
      ? []
      : [{ migration, tag: journal.entries[index]?.tag ?? String(migration.folderMillis) }],
  );
}
