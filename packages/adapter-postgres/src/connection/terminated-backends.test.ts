/**
 * An administrator ends berthd's backends (`pg_terminate_backend`, as a
 * restart does with 57P01) while connections are checked out of the pools
 * in the middle of a transaction and while they sit idle: the process never
 * sees an unhandled `error` event, the transactions fail as `unavailable`
 * (503), and the next ones run on fresh connections.
 */
import { isEngineError } from "@berth/engine";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Pools } from "./pools.js";

const unavailable = inject("postgresUnavailable");

let url: string;
let pools: Pools;
beforeAll(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
  pools = new Pools(url, { applicationName: "berth-terminated" });
});
afterAll(async () => {
  await pools?.close();
});

/** Ends every backend of the pools (by application name) from another connection. */
async function terminatePoolBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'berth-terminated'",
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (unavailable !== "") it.skip(`PostgreSQL pool tests skipped: ${unavailable}`, () => {});

describe.skipIf(unavailable !== "")("pools whose backends an administrator terminates", () => {
  it("a transaction between two statements fails as unavailable; the process lives, the next one runs", async () => {
    let inside = 0;
    let resume!: () => void;
    const ended = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const between = (pool: "writeTx" | "readTx") =>
      pools[pool](async (tx) => {
        await tx.rows("SELECT 1");
        inside += 1;
        // The backend is ended while this connection is checked out and no query is active.
        await ended;
        return tx.rows("SELECT 2 AS two");
      });
    const pending = [between("writeTx"), between("readTx")].map((p) => p.catch((error: unknown) => error));
    await expect.poll(() => inside).toBe(2);
    expect(await terminatePoolBackends()).toBeGreaterThanOrEqual(2);
    // Let the server's FATAL reach the idle, checked-out connections before they go on.
    await sleep(100);
    resume();
    // Nothing was committed: each is re-run on a fresh connection, or fails as unavailable (503).
    for (const outcome of await Promise.all(pending)) {
      if (Array.isArray(outcome)) expect(outcome).toEqual([{ two: 2 }]);
      else expect(isEngineError(outcome, "unavailable"), String(outcome)).toBe(true);
    }
    expect(await pools.writeTx((tx) => tx.rows<{ one: number }>("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
    expect(await pools.readTx((tx) => tx.rows<{ one: number }>("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
  });

  it("idle connections ended together are replaced on the next checkout", async () => {
    await Promise.all(Array.from({ length: 4 }, () => pools.query("SELECT pg_sleep(0.05)")));
    expect(await terminatePoolBackends()).toBeGreaterThanOrEqual(1);
    await sleep(100);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => pools.query<{ one: number }>("SELECT 1 AS one")),
    );
    expect(answers.flat()).toEqual(Array.from({ length: 4 }, () => ({ one: 1 })));
  });
});
