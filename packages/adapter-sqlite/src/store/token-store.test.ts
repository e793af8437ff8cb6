import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import type { ApiTokenRecord } from "../index.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const token = (name: string, hash: string, extra: Partial<ApiTokenRecord> = {}): ApiTokenRecord => ({
  id: `id-${name}`,
  name,
  hash,
  admin: false,
  projects: ["team"],
  created_at: "2026-11-21T00:00:00.000Z",
  ...extra,
});

describe("SqliteTokenStore", () => {
  it("creates, finds by hash, lists in name order and deletes by name or id", async () => {
    const store = await openStore(":memory:");
    await store.tokens.create(token("zeta", "h1", { admin: true, projects: [], description: "ops" }));
    await store.tokens.create(token("alpha", "h2"));
    expect(await store.tokens.findByHash("h1")).toEqual(
      token("zeta", "h1", { admin: true, projects: [], description: "ops" }),
    );
    expect(await store.tokens.findByHash("h2")).toEqual(token("alpha", "h2"));
    expect(await store.tokens.findByHash("nope")).toBeUndefined();
    expect((await store.tokens.list()).map((t) => t.name)).toEqual(["alpha", "zeta"]);
    expect(await store.tokens.delete("alpha")).toBe(true);
    expect(await store.tokens.delete("id-zeta")).toBe(true);
    expect(await store.tokens.delete("zeta")).toBe(false);
    expect(await store.tokens.list()).toEqual([]);
    await store.close();
  });

  it("replaces a token's projects by id, and the next lookup sees them", async () => {
    const store = await openStore(":memory:");
    await store.tokens.create(token("team", "h1", { projects: ["a", "b"] }));
    expect((await store.tokens.findByHash("h1"))?.projects).toEqual(["a", "b"]);
    expect(await store.tokens.setProjects("id-team", ["b", "c"])).toBe(true);
    expect((await store.tokens.findByHash("h1"))?.projects).toEqual(["b", "c"]);
    expect(await store.tokens.setProjects("id-nobody", [])).toBe(false);
    await store.close();
  });

  it("refuses a second token with the same name (conflict), keeping the first", async () => {
    const store = await openStore(":memory:");
    await store.tokens.create(token("ci", "h1"));
    await expect(store.tokens.create(token("ci", "h2", { id: "other" }))).rejects.toMatchObject({
      kind: "conflict",
      message: 'Token "ci" already exists',
    });
    expect(await store.tokens.findByHash("h2")).toBeUndefined();
    expect((await store.tokens.findByHash("h1"))?.name).toBe("ci");
    await store.close();
  });

  it("shares tokens between stores on one file, and keeps them across reopening", async () => {
    const file = dir.file("tokens.db");
    const first = await openStore(file);
    const second = await openStore(file);
    await first.tokens.create(token("ci", "h1"));
    expect((await second.tokens.findByHash("h1"))?.name).toBe("ci");
    expect(await second.tokens.delete("ci")).toBe(true);
    // Revocation is seen at once by the other store: there is no cache to go stale.
    expect(await first.tokens.findByHash("h1")).toBeUndefined();
    await first.tokens.create(token("kept", "h3"));
    await first.close();
    await second.close();
    const reopened = await openStore(file);
    expect((await reopened.tokens.list()).map((t) => t.name)).toEqual(["kept"]);
    await reopened.close();
  });
});
