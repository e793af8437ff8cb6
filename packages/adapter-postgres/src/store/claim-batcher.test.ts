/**
 * Group commit: while a batch transaction runs, the create claims that
 * arrive wait and then commit together in one transaction (one change-feed
 * entry), each still answered on its own; a second batch starts beside a
 * first only once the first has run long (it waits on a lock).
 */
import { Engine } from "@berth/engine";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterEach, beforeEach, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { MAX_BATCHES_RUNNING } from "./batch-turns.js";
import type { ClaimBatcherOptions } from "./claim-batcher.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let url: string;
let admin: pg.Client;
let blocker: pg.Client;
const stores: PostgresStore[] = [];
beforeEach(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  blocker = new pg.Client({ connectionString: url });
  await blocker.connect();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await blocker?.end();
  await admin?.end();
});

/** An engine on its own store whose claims are counted as the engine hands them over. */
async function countingEngine(claimBatches?: ClaimBatcherOptions) {
  const store = await openPostgresStore(url, claimBatches === undefined ? {} : { claimBatches });
  stores.push(store);
  const counter = { submitted: 0 };
  const claim = store.claim.bind(store);
  store.claim = (submitted) => {
    counter.submitted += 1;
    return claim(submitted);
  };
  const engine = await Engine.open({ store });
  await engine.members.create({
    name: "n1",
    inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } },
  });
  return { engine, counter };
}

const claimEntries = async () =>
  Number(
    (await admin.query("SELECT count(*) AS n FROM change_log WHERE entry->>'kind' = 'claim'")).rows[0].n,
  );

/** Transactions of this database waiting for a lock right now. */
const lockWaiters = async () =>
  Number(
    (
      await admin.query(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      )
    ).rows[0].n,
  );

async function untilLockWaiters(count: number): Promise<void> {
  for (let waited = 0; waited < 250 && (await lockWaiters()) < count; waited++) await sleep(20);
  expect(await lockWaiters()).toBe(count);
}

/** Holds the only member's row, so every claim's batch waits for it. */
async function holdMember(): Promise<void> {
  await blocker.query("BEGIN");
  await blocker.query("SELECT 1 FROM members WHERE name = 'n1' FOR UPDATE");
}

/**
 * Starts creates named `prefix0..` one at a time, each once the previous
 * one's claim reached the store and a few more turns of the event loop
 * passed: without group commit, each would be a transaction of its own.
 */
async function createOneByOne(
  setup: Awaited<ReturnType<typeof countingEngine>>,
  prefix: string,
  count: number,
): Promise<Promise<unknown>[]> {
  const creates: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const submitted = setup.counter.submitted;
    creates.push(setup.engine.instances.create({ name: `${prefix}${i}`, config: { "limits.cpu": "1" } }));
    while (setup.counter.submitted === submitted) await nextTurn();
    for (let turn = 0; turn < 5; turn++) await nextTurn();
  }
  return creates;
}

async function expectAllCreated(
  setup: Awaited<ReturnType<typeof countingEngine>>,
  creates: Promise<unknown>[],
) {
  const outcomes = await Promise.allSettled(creates);
  expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(creates.length);
  expect(await setup.engine.instances.list()).toHaveLength(creates.length);
}

it.skipIf(unavailable !== "")(
  "claims arriving while a batch runs wait for it, then commit together in one transaction",
  async () => {
    // A batch never counts as slow here: one transaction at a time, however long it waits.
    const setup = await countingEngine({ slowBatchMs: 10 * 60_000 });
    const before = await claimEntries();
    await holdMember();
    const creates = await createOneByOne(setup, "c", 1);
    await untilLockWaiters(1);
    creates.push(...(await createOneByOne(setup, "d", 6)));
    // Still the one batch waiting: nothing started beside it.
    await sleep(300);
    expect(await lockWaiters()).toBe(1);
    await blocker.query("COMMIT");
    await expectAllCreated(setup, creates);
    // The blocked batch (one claim), then the six that queued behind it, in one.
    expect((await claimEntries()) - before).toBe(2);
  },
);

it.skipIf(unavailable !== "")(
  "a batch waiting on a lock lets a second start beside it; the rest queue and commit together",
  async () => {
    const setup = await countingEngine();
    const before = await claimEntries();
    await holdMember();
    const creates = await createOneByOne(setup, "c", 1);
    await untilLockWaiters(1);
    // The first has run longer than SLOW_BATCH_MS by now: this one starts beside it, and waits too.
    creates.push(...(await createOneByOne(setup, "d", 1)));
    await untilLockWaiters(MAX_BATCHES_RUNNING);
    creates.push(...(await createOneByOne(setup, "e", 6)));
    await blocker.query("COMMIT");
    await expectAllCreated(setup, creates);
    // The two blocked batches, then everything that queued behind them in one.
    expect((await claimEntries()) - before).toBe(MAX_BATCHES_RUNNING + 1);
  },
);
