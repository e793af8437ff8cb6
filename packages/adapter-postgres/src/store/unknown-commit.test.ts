/**
 * A claim whose connection is lost after its COMMIT was sent: the store
 * reads the change feed for the claim's token and answers what happened.
 * The connection is cut by a TCP relay on loopback between the store and a
 * real PostgreSQL, at the exact point: once the claim's statement (it
 * carries the token) and COMMIT went through, the store's side is closed
 * before the answer comes back (PostgreSQL commits: the claim stands, once),
 * or COMMIT is held back and both sides are closed (PostgreSQL rolls back:
 * a 503 that says nothing was written).
 */
import { EngineError } from "@berth/engine";
import { inventory, newInstance, newMember } from "@berth/engine/testing";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LoopbackRelay } from "../../test-support/loopback-relay.fixture.js";
import { openPostgresStore } from "../open-store.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");

let url: string;
let relay: LoopbackRelay;
let store: PostgresStore;
beforeAll(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
  relay = new LoopbackRelay(new URL(url));
  store = await openPostgresStore((await relay.start()).toString());
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(newMember("m", { inventories: { VCPU: inventory(100) } }));
});
afterAll(async () => {
  await store?.close();
  relay?.close();
});

async function logEntriesWith(token: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query("SELECT 1 FROM change_log WHERE entry @> $1::jsonb", [
      JSON.stringify({ tokens: [token] }),
    ]);
    return rows.length;
  } finally {
    await admin.end();
  }
}

if (unavailable !== "") it.skip(`PostgreSQL unknown-COMMIT tests skipped: ${unavailable}`, () => {});

describe.skipIf(unavailable !== "")("a claim whose connection is lost at COMMIT", () => {
  it("committed after all: the claim's answer stands, its entry is in the log once", async () => {
    const token = "lost-commit-landed:1";
    relay.cut = { token, commit: "delivered" };
    const result = await store.claim({ create: [newInstance("landed", "m", { VCPU: 2 })], token });
    expect(relay.cuts).toBe(1);
    expect(result.instances.map((instance) => instance.name)).toEqual(["landed"]);
    expect((await store.getInstance("default", "landed"))?.location).toBe("m");
    expect(await logEntriesWith(token)).toBe(1);
    expect((await store.check()).violations).toEqual([]);
  });

  it("rolled back: a 503 that says nothing was written, and nothing is", async () => {
    const token = "lost-commit-rolled-back:1";
    relay.cut = { token, commit: "held back" };
    const error = await store
      .claim({ create: [newInstance("rolled-back", "m", { VCPU: 2 })], token })
      .catch((e: unknown) => e);
    expect(relay.cuts).toBe(2);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: "unavailable" });
    expect((error as EngineError).message).toMatch(/nothing was written/);
    expect(await store.getInstance("default", "rolled-back")).toBeUndefined();
    expect(await logEntriesWith(token)).toBe(0);
    expect((await store.check()).violations).toEqual([]);
  });
});
