import { EngineError } from "@berth/engine";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { instanceOf, inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";
import { openConnection } from "./open-connection.js";
import { SYNC_BUSY_WAIT_MS } from "./pragmas.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

async function pragma(
  connection: Awaited<ReturnType<typeof openConnection>>,
  name: string,
): Promise<unknown> {
  return connection.read(async (raw) => Object.values((await raw.rows(`PRAGMA ${name}`))[0] ?? {})[0]);
}

describe("openConnection", () => {
  it("sets WAL, synchronous=NORMAL, a short busy_timeout and foreign keys on a file", async () => {
    const connection = await openConnection(
      { kind: "file", path: dir.file("pragmas.db") },
      { busyTimeoutMs: 4321 },
    );
    try {
      expect(await pragma(connection, "journal_mode")).toBe("wal");
      expect(await pragma(connection, "synchronous")).toBe(1); // NORMAL
      // SQLite's own busy wait blocks the thread: kept short, the rest of the wait is timers.
      expect(await pragma(connection, "busy_timeout")).toBe(SYNC_BUSY_WAIT_MS);
      expect(await pragma(connection, "foreign_keys")).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("enforces foreign keys in memory too", async () => {
    const connection = await openConnection({ kind: "memory" });
    try {
      expect(await pragma(connection, "foreign_keys")).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("serializes this process's transactions on its one connection", async () => {
    const connection = await openConnection({ kind: "memory" });
    try {
      await connection.write(async (raw) => raw.run("CREATE TABLE t (n INTEGER)"));
      const order: string[] = [];
      await Promise.all(
        ["a", "b", "c"].map((name) =>
          connection.write(async (raw) => {
            order.push(`${name}:begin`);
            await raw.run("INSERT INTO t VALUES (1)");
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(`${name}:end`);
          }),
        ),
      );
      expect(order).toEqual(["a:begin", "a:end", "b:begin", "b:end", "c:begin", "c:end"]);
    } finally {
      await connection.close();
    }
  });

  it("rolls back everything when the work throws", async () => {
    const connection = await openConnection({ kind: "memory" });
    try {
      await connection.write(async (raw) => raw.run("CREATE TABLE t (n INTEGER)"));
      await expect(
        connection.write(async (raw) => {
          await raw.run("INSERT INTO t VALUES (1)");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(
        await connection.read(async (raw) => (await raw.rows("SELECT count(*) AS n FROM t"))[0]?.n),
      ).toBe(0);
    } finally {
      await connection.close();
    }
  });
});

describe("a writer held up by another connection's write lock", () => {
  it("waits busy_timeout without blocking the event loop or reads, then fails with a retryable 503 error and changes nothing", async () => {
    const file = dir.file("busy.db");
    const store = await openStore(file, { busyTimeoutMs: 500 });
    await store.projects.create({ name: "default", description: "", config: {} });
    await store.createMember(memberOf("a", { VCPU: inventoryOf(4) }));
    const other = createClient({ url: `file:${file}` });
    const holder = await other.transaction("write");
    // Timers keep firing while the claim waits: the wait is not a sleep on this thread.
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 10);
    try {
      const started = Date.now();
      let settled = false;
      const claim = store
        .claim({ create: [instanceOf("i", "a", { VCPU: 1 })] })
        .catch((e: unknown) => e)
        .finally(() => {
          settled = true;
        });
      // Reads through the same store do not queue behind the waiting write.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await store.getMember("a"))?.name).toBe("a");
      expect((await store.listInstances({})).length).toBe(0);
      expect(settled).toBe(false);
      const error = await claim;
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      expect(ticks).toBeGreaterThanOrEqual(3);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).kind).toBe("unavailable");
      expect((error as EngineError).details).toEqual({ reason: "busy", retryAfterSeconds: 1 });
    } finally {
      clearInterval(ticker);
      await holder.rollback();
      await other.close();
    }
    await store.claim({ create: [instanceOf("i", "a", { VCPU: 1 })] });
    expect((await store.memberUsage(["a"]))[0]?.used).toEqual({ VCPU: 1 });
    await store.close();
  });
});
