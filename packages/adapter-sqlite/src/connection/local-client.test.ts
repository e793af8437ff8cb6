import { LibsqlError } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { LocalClient } from "./local-client.js";

describe("LocalClient", () => {
  it("answers rows by position and by name, integers as numbers, like @libsql/client", async () => {
    const client = new LocalClient(":memory:", 1000);
    await client.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, size INTEGER)");
    const inserted = await client.execute({
      sql: "INSERT INTO t (name, size) VALUES (?, ?)",
      args: ["a", 7],
    });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(1n);
    const result = await client.execute("SELECT id, name, size, name FROM t");
    expect(result.columns).toEqual(["id", "name", "size", "name"]);
    const row = result.rows[0]!;
    expect(row.length).toBe(4);
    expect([row[0], row[1], row[2], row[3]]).toEqual([1, "a", 7, "a"]);
    // Only names are enumerable (drizzle copies rows with Object.keys).
    expect(Object.keys(row)).toEqual(["id", "name", "size"]);
    expect(Array.prototype.slice.call(row)).toEqual([1, "a", 7, "a"]);
    client.close();
  });

  it("reuses compiled statements across calls with different arguments", async () => {
    const client = new LocalClient(":memory:", 1000);
    await client.execute("CREATE TABLE t (v INTEGER)");
    for (let i = 0; i < 5; i++) await client.execute({ sql: "INSERT INTO t (v) VALUES (?)", args: [i] });
    const sum = await client.execute({ sql: "SELECT sum(v) AS s FROM t WHERE v >= ?", args: [2] });
    expect(sum.rows[0]?.s).toBe(9);
    client.close();
  });

  it("refuses integers a JS number cannot hold instead of rounding them", async () => {
    const client = new LocalClient(":memory:", 1000);
    await expect(client.execute("SELECT 9007199254740993 AS big")).rejects.toBeInstanceOf(RangeError);
    client.close();
  });

  it("reports SQLite failures as LibsqlError with the base code", async () => {
    const client = new LocalClient(":memory:", 1000);
    await client.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    await client.execute("INSERT INTO t VALUES (1)");
    const failure = await client.execute("INSERT INTO t VALUES (1)").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LibsqlError);
    expect((failure as LibsqlError).code).toBe("SQLITE_CONSTRAINT");
    const syntax = await client.execute("SELEC 1").catch((e: unknown) => e);
    expect((syntax as LibsqlError).code).toBe("SQLITE_ERROR");
    client.close();
  });

  it("rolls back a transaction closed without commit", async () => {
    const client = new LocalClient(":memory:", 1000);
    await client.execute("CREATE TABLE t (v INTEGER)");
    const tx = await client.transaction("write");
    await tx.execute({ sql: "INSERT INTO t VALUES (?)", args: [1] });
    tx.close();
    expect((await client.execute("SELECT count(*) AS n FROM t")).rows[0]?.n).toBe(0);
    const committed = await client.transaction("write");
    await committed.execute({ sql: "INSERT INTO t VALUES (?)", args: [2] });
    await committed.commit();
    committed.close();
    expect((await client.execute("SELECT count(*) AS n FROM t")).rows[0]?.n).toBe(1);
    await expect(committed.execute("SELECT 1")).rejects.toMatchObject({ code: "TRANSACTION_CLOSED" });
    client.close();
  });
});
