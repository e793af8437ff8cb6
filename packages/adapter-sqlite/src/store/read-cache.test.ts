import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const profile = (name: string, limit: string) => ({
  project: "default",
  name,
  description: "",
  config: { "limits.cpu": limit },
  devices: {},
});

describe("cached catalog reads", () => {
  it("see writes of this store and of another connection to the file at once", async () => {
    const file = dir.file("cache.db");
    const first = await openStore(file);
    const second = await openStore(file);
    await first.projects.create({ name: "default", description: "", config: {} });
    await first.profiles.create(profile("small", "1"));
    expect((await first.profiles.list({ project: "default" })).map((p) => p.name)).toEqual(["small"]);
    // Written through the other connection: the cached list must not survive it.
    await second.profiles.update(profile("small", "2"));
    expect((await first.profiles.get({ project: "default", name: "small" }))?.config).toEqual({
      "limits.cpu": "2",
    });
    await second.profiles.create(profile("large", "8"));
    expect((await first.profiles.list({ project: "default" })).map((p) => p.name)).toEqual([
      "large",
      "small",
    ]);
    // Written through this connection.
    await first.profiles.delete({ project: "default", name: "large" });
    expect((await first.profiles.list({ project: "default" })).map((p) => p.name)).toEqual(["small"]);
    await first.close();
    await second.close();
  });

  it("hands out copies: a caller changing a record does not change the cache", async () => {
    const store = await openStore(":memory:");
    await store.projects.create({ name: "default", description: "", config: {} });
    await store.profiles.create(profile("small", "1"));
    const [listed] = await store.profiles.list({ project: "default" });
    (listed as { config: Record<string, string> }).config["limits.cpu"] = "99";
    expect((await store.profiles.list({ project: "default" }))[0]?.config).toEqual({ "limits.cpu": "1" });
    await store.close();
  });

  it("hands credentials out shared and frozen: a caller cannot change the cache", async () => {
    const store = await openStore(":memory:");
    const record = {
      id: "id-team",
      name: "team",
      hash: "h1",
      admin: false,
      projects: ["a"],
      created_at: "2026-11-29T00:00:00.000Z",
    };
    await store.tokens.create(record);
    const first = await store.tokens.findByHash("h1");
    expect(first).toEqual(record);
    expect(await store.tokens.findByHash("h1")).toBe(first);
    const projects = (first as { projects: string[] }).projects;
    expect(() => projects.push("b")).toThrow(TypeError);
    expect(Object.isFrozen(first)).toBe(true);
    expect((await store.tokens.list())[0]?.projects).toEqual(["a"]);
    await store.close();
  });
});
