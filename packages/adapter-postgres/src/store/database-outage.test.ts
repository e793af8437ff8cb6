/**
 * A store whose database goes out of reach (a loopback relay between them
 * ends every connection and refuses new ones), then comes back: meanwhile a
 * token checked before the outage is still answered from memory, an unknown
 * one and any write get `unavailable` (503), nothing crashes; afterwards the
 * LISTEN connection and the pools are back by themselves and claims land.
 */
import { isEngineError } from "@berth/engine";
import { inventory, newInstance, newMember } from "@berth/engine/testing";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LoopbackRelay } from "../../test-support/loopback-relay.fixture.js";
import { openPostgresStore } from "../open-store.js";
import { FEED_CHANNEL } from "./feed.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");

let relay: LoopbackRelay;
let store: PostgresStore;
/** The database itself, not through the relay. */
let databaseUrl: string;
beforeAll(async () => {
  if (unavailable !== "") return;
  databaseUrl = await createTestDatabase(inject("postgresAdminUrl"));
  relay = new LoopbackRelay(new URL(databaseUrl));
  store = await openPostgresStore((await relay.start()).toString(), { connectTimeoutMs: 1_000 });
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(newMember("m", { inventories: { VCPU: inventory(100) } }));
  await store.tokens.create({
    id: "id-admin",
    name: "admin",
    hash: "hash-admin",
    admin: true,
    projects: [],
    created_at: new Date().toISOString(),
  });
});
afterAll(async () => {
  relay?.up();
  await store?.close();
  relay?.close();
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A wake-up on the change feed's channel from another session (as another server's write sends). */
async function notifyFeed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`NOTIFY ${FEED_CHANNEL}`);
  } finally {
    await client.end();
  }
}

const unavailableError = (error: unknown) => isEngineError(error, "unavailable");

if (unavailable !== "") it.skip(`PostgreSQL outage tests skipped: ${unavailable}`, () => {});

describe.skipIf(unavailable !== "")("a PostgreSQL store while its database is out of reach", () => {
  it("answers kept credentials, refuses the rest with unavailable, and recovers by itself", async () => {
    await until(() => store.listening, 20_000);
    expect(store.listening).toBe(true);
    // The token's own creation notifies every server (this one too) to forget what it kept: let it
    // arrive. Notifications reach a listener in commit order, so once a wake-up sent after it
    // arrives, it has arrived too.
    let woken = false;
    const watch = store.feed.watch?.(() => {
      woken = true;
    });
    await notifyFeed(databaseUrl);
    await until(() => woken, 20_000);
    watch?.stop();
    expect(woken).toBe(true);
    expect((await store.tokens.findByHash("hash-admin"))?.name).toBe("admin");

    relay.down();
    await until(() => !store.listening, 20_000);
    expect(store.listening).toBe(false);
    // Checked before the outage: answered from memory while the database cannot be read.
    expect((await store.tokens.findByHash("hash-admin"))?.name).toBe("admin");
    // Never seen: only the database could tell, and it cannot.
    expect(unavailableError(await store.tokens.findByHash("hash-other").catch((e: unknown) => e))).toBe(true);
    const refused = await store
      .claim({ create: [newInstance("during", "m", { VCPU: 1 })] })
      .catch((e: unknown) => e);
    expect(unavailableError(refused), String(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/PostgreSQL/);

    relay.up();
    await until(() => store.listening, 20_000);
    expect(store.listening).toBe(true);
    const placed = await store.claim({ create: [newInstance("after", "m", { VCPU: 1 })] });
    expect(placed.instances.map((instance) => instance.name)).toEqual(["after"]);
    expect(await store.getInstance("default", "during")).toBeUndefined();
    expect((await store.check()).violations).toEqual([]);
  });
});
