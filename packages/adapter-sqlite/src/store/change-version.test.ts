import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { instanceOf, inventoryOf, memberOf } from "../testing/records.fixture.js";
import { makeTempDir } from "../testing/temp-dir.fixture.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("changeVersion() answered from memory", () => {
  it("moves with this store's own member, catalog and config writes at once", async () => {
    const store = await openStore(dir.file("own.db"));
    try {
      const start = await store.changeVersion();
      await store.projects.create({ name: "default", description: "", config: {} });
      expect(await store.changeVersion()).toBe(start + 1);
      await store.createMember(memberOf("m", { VCPU: inventoryOf(8) }));
      expect(await store.changeVersion()).toBe(start + 2);
      await store.setConfig({ "cluster.offline_threshold": "30" });
      expect(await store.changeVersion()).toBe(start + 3);
      // A claim never moves the counter; the cached answer stays right.
      await store.claim({ create: [instanceOf("c1", "m", { VCPU: 1 })] });
      expect(await store.changeVersion()).toBe(start + 3);
    } finally {
      await store.close();
    }
  });

  it("sees a change committed by another connection from the next event-loop turn on", async () => {
    const file = dir.file("other.db");
    const store = await openStore(file);
    // A bare connection of its own, as another process would have (not the
    // in-process queue the store shares with stores it opened itself).
    const other = new Database(file, { timeout: 10_000 });
    try {
      const before = await store.changeVersion();
      expect(before).toBe(0);
      // What bumpChangeVersion does (the row is absent until the first change).
      other.exec(
        "INSERT INTO change_counter (id, version) VALUES (1, 5) ON CONFLICT (id) DO UPDATE SET version = version + 5",
      );
      await nextTurn();
      expect(await store.changeVersion()).toBe(before + 5);
      // And again, with the answer cached in between.
      expect(await store.changeVersion()).toBe(before + 5);
      other.exec("UPDATE change_counter SET version = version + 1 WHERE id = 1");
      await nextTurn();
      expect(await store.changeVersion()).toBe(before + 6);
    } finally {
      other.close();
      await store.close();
    }
  });
});
