import { EngineError } from "@berth/engine";
import { inventory, newInstance, newMember } from "@berth/engine/testing";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");

let url: string;
let store: PostgresStore;
beforeAll(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
  store = await openPostgresStore(url, { lockTimeoutMs: 300 });
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(newMember("m", { inventories: { VCPU: inventory(100) } }));
});
afterAll(async () => {
  await store?.close();
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

if (unavailable !== "") it.skip(`PostgreSQL reconnect tests skipped: ${unavailable}`, () => {});

describe.skipIf(unavailable !== "")("a PostgreSQL store through lost connections and held locks", () => {
  it("reconnects by itself when the server ends every connection (pool and LISTEN)", async () => {
    await until(() => store.listening, 5_000);
    expect(store.listening).toBe(true);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
    } finally {
      await admin.end();
    }
    // The first calls may meet a dead connection: a 503-kind error, never a crash or a 500.
    let claimed = false;
    for (let attempt = 0; attempt < 10 && !claimed; attempt++) {
      try {
        await store.claim({ create: [newInstance(`after-${attempt}`, "m", { VCPU: 1 })] });
        claimed = true;
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).kind).toBe("unavailable");
      }
    }
    expect(claimed).toBe(true);
    await until(() => store.listening, 10_000);
    expect(store.listening).toBe(true);
    expect((await store.check()).violations).toEqual([]);
  });

  it("a claim that waits on rows another transaction holds gives up after the lock timeout with unavailable", async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM members WHERE name = 'm' FOR UPDATE");
      const started = Date.now();
      const error = await store
        .claim({ create: [newInstance("blocked", "m", { VCPU: 1 })] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({
        kind: "unavailable",
        details: { reason: "lock_timeout", retryAfterSeconds: 1 },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      // Reads do not wait on row locks.
      expect((await store.getMember("m"))?.name).toBe("m");
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    expect(await store.getInstance("default", "blocked")).toBeUndefined();
  });
});
