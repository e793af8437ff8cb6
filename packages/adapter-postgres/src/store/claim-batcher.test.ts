/**
 * Group commit: while the batch transactions allowed at once are running,
 * the create claims that arrive wait and then commit together in one
 * transaction (one change-feed entry), each still answered on its own.
 */
import { Engine } from "@berth/engine";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { createTestDatabase } from "../testing/databases.js";
import { MAX_BATCHES_RUNNING } from "./claim-batcher.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

let url: string;
let store: PostgresStore;
let engine: Engine;
/** Claims the engine has handed to the store so far. */
let claimsSubmitted = 0;
beforeAll(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
  store = await openPostgresStore(url);
  const claim = store.claim.bind(store);
  store.claim = (submitted) => {
    claimsSubmitted += 1;
    return claim(submitted);
  };
  engine = await Engine.open({ store });
  await engine.createMember({
    name: "n1",
    inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } },
  });
});
afterAll(async () => {
  await store?.close();
});

it.skipIf(unavailable !== "")(
  "claims arriving while the allowed batches run commit together in the next transaction",
  async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const claimEntries = async () =>
        Number(
          (await admin.query("SELECT count(*) AS n FROM change_log WHERE entry->>'kind' = 'claim'")).rows[0]
            .n,
        );
      const before = await claimEntries();
      // Hold the only member's row: the running batches wait for it.
      const blocker = new pg.Client({ connectionString: url });
      await blocker.connect();
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM members WHERE name = 'n1' FOR UPDATE");
      const creates: Promise<unknown>[] = [];
      // Each create's claim reaches the store on a turn of the event loop of its own (the next create
      // starts once it has): without the bound, each would be a transaction of its own.
      for (let i = 0; i < MAX_BATCHES_RUNNING + 6; i++) {
        const submitted = claimsSubmitted;
        creates.push(engine.createInstance({ name: `c${i}`, config: { "limits.cpu": "1" } }));
        while (claimsSubmitted === submitted) await nextTurn();
        for (let turn = 0; turn < 5; turn++) await nextTurn();
      }
      for (let waited = 0; waited < 100; waited++) {
        const { rows } = await admin.query(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (Number(rows[0].n) >= MAX_BATCHES_RUNNING) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await blocker.query("COMMIT");
      await blocker.end();
      const outcomes = await Promise.allSettled(creates);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(creates.length);
      // The blocked batches (one claim each), then everything that queued behind them in one.
      expect((await claimEntries()) - before).toBe(MAX_BATCHES_RUNNING + 1);
      expect((await engine.listInstances()).map((instance) => instance.name).sort()).toEqual(
        Array.from({ length: creates.length }, (_, i) => `c${i}`).sort(),
      );
    } finally {
      await admin.end();
    }
  },
);
