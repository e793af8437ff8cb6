import { existsSync, readFileSync, statSync } from "node:fs";
import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openConnection } from "./open-connection.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const MiB = 1024 * 1024;
const walSize = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);

describe("WAL checkpoints on a worker", () => {
  it("keep the WAL bounded under sustained writes, with no automatic checkpoint on the connection", async () => {
    const file = dir.file("bounded.db");
    const connection = await openConnection({ kind: "file", path: file });
    let largest = 0;
    try {
      await connection.write((raw) => raw.run("CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)"));
      const [row] = await connection.read((raw) => raw.rows("PRAGMA wal_autocheckpoint"));
      expect(Object.values(row ?? {})[0]).toBe(0);
      // 192 MiB of rows in 24 KiB commits; the worker has the WAL started over past 16 MiB.
      for (let i = 0; i < 8192; i++) {
        await connection.write((raw) => raw.run("INSERT INTO t (body) VALUES (randomblob(24576))"));
        if (i % 64 === 0) largest = Math.max(largest, walSize(file));
      }
    } finally {
      await connection.close();
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(96 * MiB);
  }, 120_000);

  it("start with the first commit: a connection that only reads runs no worker and checkpoints as SQLite does", async () => {
    const file = dir.file("reader.db");
    const setup = new Database(file);
    setup.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)");
    setup.close();
    const before = threads();
    const connection = await openConnection({ kind: "file", path: file });
    try {
      const [row] = await connection.read((raw) => raw.rows("PRAGMA wal_autocheckpoint"));
      expect(Object.values(row ?? {})[0]).toBe(1000);
      expect(threads()).toBe(before);
      await connection.write((raw) => raw.run("INSERT INTO t VALUES (2)"));
      expect(threads()).toBeGreaterThan(before);
    } finally {
      await connection.close();
    }
    expect(threads()).toBe(before);
  });

  it("leave no thread running once the connection is closed", async () => {
    const before = threads();
    const connection = await openConnection({ kind: "file", path: dir.file("threads.db") });
    await connection.write((raw) => raw.run("CREATE TABLE t (n INTEGER)"));
    expect(threads()).toBeGreaterThan(before);
    await connection.close();
    expect(threads()).toBe(before);
  });

  it("do not move PRAGMA data_version (the change feed's key): a checkpoint is no commit", async () => {
    const file = dir.file("version.db");
    const connection = await openConnection({ kind: "file", path: file });
    const other = new Database(file);
    try {
      await connection.write((raw) => raw.run("CREATE TABLE t (n INTEGER)"));
      await connection.write((raw) => raw.run("INSERT INTO t VALUES (1)"));
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      await turn();
      const version = await connection.dataVersion();
      // The worker's kind of checkpoint (TRUNCATE or RESTART would move it: they rewrite the WAL's header).
      expect(other.prepare("PRAGMA wal_checkpoint(PASSIVE)").get()).toMatchObject({
        busy: 0,
        checkpointed: 3,
      });
      await turn();
      expect(await connection.dataVersion()).toBe(version);
    } finally {
      other.close();
      await connection.close();
    }
  });
});
