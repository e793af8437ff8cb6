import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteStore } from "@berth/adapter-sqlite";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "./open-store.js";
import { parseDaemonOptions } from "./options.js";

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "../..");
const dir = mkdtempSync(join(tmpdir(), "berth-open-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("opens the SQLite store with the change-log retention given to berthd", async () => {
  const db = join(dir, "retention.db");
  const { database } = parseDaemonOptions(["--db", db, "--feed-retention", "60"], {});
  const opened = await openDatabase(db, database);
  try {
    expect(opened.store).toBeInstanceOf(SqliteStore);
    expect((opened.store as SqliteStore).feedRetentionMs).toBe(60_000);
  } finally {
    await opened.store.close();
  }
});

it("leaves pg and the PostgreSQL store unloaded when the database is a SQLite file", () => {
  // Node keeps every CommonJS module it loads, imported ones too, in require.cache: pg is one.
  const script = `
    import { createRequire } from "node:module";
    const { openDatabase } = await import(${JSON.stringify(join(PACKAGE_DIR, "dist/daemon/open-store.js"))});
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]node_modules[\\/]pg[\\/]/.test(path));
    const opened = await openDatabase(${JSON.stringify(join(dir, "no-pg.db"))});
    await opened.store.close();
    const afterSqlite = loaded();
    await import("@berth/adapter-postgres");
    console.log(JSON.stringify({ afterSqlite, afterPostgresImport: loaded() }));`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: PACKAGE_DIR });
  expect(JSON.parse(output.toString())).toEqual({ afterSqlite: false, afterPostgresImport: true });
});
