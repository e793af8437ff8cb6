import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "@berth/adapter-sqlite";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "./open-store.js";
import { parseDaemonOptions } from "./options.js";

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
