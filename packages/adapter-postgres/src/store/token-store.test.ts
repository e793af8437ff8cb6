/**
 * API tokens kept in memory by each server on one database: a token changed
 * or revoked through one store is seen by the other once the notification
 * arrives, and at once by the store that changed it; a token unknown to a
 * server is looked up again on its next use.
 */
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ApiTokenRecord } from "../index.js";
import { openPostgresStore } from "../open-store.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");

let stores: PostgresStore[] = [];
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  stores = [await openPostgresStore(url), await openPostgresStore(url)];
  await until(() => stores.every((store) => store.listening));
});
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function token(name: string, projects: string[] = []): ApiTokenRecord {
  return {
    id: `id-${name}`,
    name,
    hash: `hash-${name}`,
    admin: projects.length === 0,
    projects,
    created_at: "2026-01-01T00:00:00.000Z",
  };
}

describe.skipIf(unavailable !== "")("API tokens on several servers", () => {
  it("a revoked token is refused at once where it was revoked, and by the other server after the notification", async () => {
    const [a, b] = stores as [PostgresStore, PostgresStore];
    await a.tokens.create(token("ops"));
    // Both servers now keep it.
    expect((await a.tokens.findByHash("hash-ops"))?.name).toBe("ops");
    expect((await b.tokens.findByHash("hash-ops"))?.name).toBe("ops");
    expect(await a.tokens.delete("ops")).toBe(true);
    expect(await a.tokens.findByHash("hash-ops")).toBeUndefined();
    await until(async () => (await b.tokens.findByHash("hash-ops")) === undefined);
  });

  it("a restricted token's new projects reach the other server", async () => {
    const [a, b] = stores as [PostgresStore, PostgresStore];
    await a.tokens.create(token("dev", ["p1"]));
    expect((await b.tokens.findByHash("hash-dev"))?.projects).toEqual(["p1"]);
    expect(await a.tokens.setProjects("id-dev", ["p2"])).toBe(true);
    await until(async () => (await b.tokens.findByHash("hash-dev"))?.projects[0] === "p2");
  });

  it("a token created on one server is found by the other at once (unknown tokens are never kept)", async () => {
    const [a, b] = stores as [PostgresStore, PostgresStore];
    expect(await b.tokens.findByHash("hash-new")).toBeUndefined();
    await a.tokens.create(token("new"));
    expect((await b.tokens.findByHash("hash-new"))?.name).toBe("new");
  });
});
