/**
 * Opening a database file that another connection holds for a moment (the
 * bench copies a freshly generated file while berthd starts; a second
 * berthd migrates it): the store waits for it, up to the busy timeout,
 * instead of failing at start-up with SQLITE_BUSY; past the timeout it
 * says the database is busy.
 */
import { EngineError } from "@berth/engine";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

/** A fresh file (rollback journal, as a generator leaves it) with a write transaction open for `ms`. */
async function heldFor(path: string, ms: number): Promise<{ released: Promise<void> }> {
  const holder = createClient({ url: `file:${path}` });
  await holder.execute("CREATE TABLE IF NOT EXISTS generated (id INTEGER PRIMARY KEY)");
  const tx = await holder.transaction("write");
  // A write in progress: switching the file to WAL, or migrating it, must wait until it commits.
  await tx.execute("INSERT INTO generated DEFAULT VALUES");
  const released = new Promise<void>((resolve) => {
    setTimeout(() => {
      void tx
        .commit()
        .finally(() => holder.close())
        .then(resolve);
    }, ms);
  });
  return { released };
}

describe("opening a store on a file another connection holds", () => {
  it("waits until it is let go (within the busy timeout) instead of failing with SQLITE_BUSY", async () => {
    const path = dir.file("held.db");
    const { released } = await heldFor(path, 400);
    const started = Date.now();
    const store = await openStore(path, { busyTimeoutMs: 10_000 });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect((await store.check()).violations).toEqual([]);
    } finally {
      await store.close();
      await released;
    }
  });

  it("past the busy timeout: a busy error that says so, not a crash of the caller", async () => {
    const path = dir.file("held-long.db");
    const { released } = await heldFor(path, 1_500);
    const error = await openStore(path, { busyTimeoutMs: 300 }).catch((e: unknown) => e);
    await released;
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: "unavailable", details: { reason: "busy" } });
  });
});
