/**
 * The change log's retention on a real SQLite file: entries older than the
 * retention go, newer ones stay, a reader whose cursor is behind what was
 * pruned is told to re-hydrate (and an engine doing so sees the current
 * state), and the store's own prune timer uses the retention it was opened with.
 */
import { Engine } from "@berth/engine";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";
import { DEFAULT_FEED_RETENTION_MS, feedPrunePeriodMs } from "./feed.js";

const dir = makeTempDir();
afterAll(() => dir.remove());
afterEach(() => vi.useRealTimers());

const MINUTE = 60_000;
const member = (name: string) => memberOf(name, { VCPU: inventoryOf(4) });
const engineMember = (name: string) => ({ name, inventories: { VCPU: { total: 4 } } });

describe("change-log retention", () => {
  it("prunes entries older than the retention and keeps newer ones; a reader behind them re-hydrates", async () => {
    // Only Date is faked: the entries' `at` is Date.now(), the I/O stays real.
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2025, 0, 1);
    vi.setSystemTime(start);
    const store = await openStore(dir.file("retention.db"));
    try {
      const before = (await store.snapshot()).feedCursor!;
      await store.createMember(member("old"));
      const middle = (await store.snapshot()).feedCursor!;
      vi.setSystemTime(start + 10 * MINUTE);
      await store.createMember(member("new"));

      // Retention 5 minutes, at minute 10: the entry of minute 0 goes, the one of minute 10 stays.
      expect(await store.pruneFeed(5 * MINUTE)).toBeGreaterThan(0);
      const fromMiddle = await store.feed.read(middle);
      expect(fromMiddle.reset).toBeUndefined();
      expect(fromMiddle.entries.map((entry) => JSON.stringify(entry))).toEqual([
        expect.stringContaining('"new"'),
      ]);
      // A cursor older than the pruned entry cannot be served: the reader must re-hydrate.
      const behind = await store.feed.read(before);
      expect(behind).toEqual({ entries: [], cursor: fromMiddle.cursor, reset: true });
      // Pruning again removes nothing more.
      expect(await store.pruneFeed(5 * MINUTE)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("prunes every entry once all are older, and the next entry still follows the pruned ones", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2025, 0, 1);
    vi.setSystemTime(start);
    const store = await openStore(dir.file("all-old.db"));
    try {
      await store.createMember(member("a"));
      await store.createMember(member("b"));
      const last = (await store.snapshot()).feedCursor!;
      vi.setSystemTime(start + 10 * MINUTE);
      expect(await store.pruneFeed(5 * MINUTE)).toBe(2);
      await store.createMember(member("c"));
      const read = await store.feed.read(last);
      expect(read.reset).toBeUndefined();
      expect(read.entries.map((entry) => JSON.stringify(entry))).toEqual([expect.stringContaining('"c"')]);
      expect(Number(read.cursor)).toBeGreaterThan(Number(last));
    } finally {
      await store.close();
    }
  });

  it("an engine whose cursor was pruned re-hydrates and sees the other engine's writes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2025, 0, 1);
    vi.setSystemTime(start);
    const file = dir.file("rehydrate.db");
    const writerStore = await openStore(file);
    const readerStore = await openStore(file);
    try {
      const writer = await Engine.open({ store: writerStore });
      const reader = await Engine.open({ store: readerStore });
      await writer.members.create(engineMember("node1"));
      vi.setSystemTime(start + 20 * MINUTE);
      await writer.members.create(engineMember("node2"));
      // node1's entry is pruned before the reader read it: only a fresh snapshot can tell it about node1.
      expect(await writerStore.pruneFeed(5 * MINUTE)).toBeGreaterThan(0);
      expect(reader.members.list()).toEqual([]);
      await reader.sync();
      expect((await reader.members.list()).map((m) => m.record.name).sort()).toEqual(["node1", "node2"]);
    } finally {
      await writerStore.close();
      await readerStore.close();
    }
  });

  it("the store prunes by the retention it was opened with, each quarter of it", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const start = Date.UTC(2025, 0, 1);
    vi.setSystemTime(start);
    const store = await openStore(dir.file("option.db"), { feedRetentionMs: 20_000 });
    try {
      expect(store.feedRetentionMs).toBe(20_000);
      const before = (await store.snapshot()).feedCursor!;
      await store.createMember(member("a"));
      // 30 s later the entry is older than 20 s; the timer (every 5 s) removes it.
      vi.setSystemTime(start + 30_000);
      vi.advanceTimersByTime(feedPrunePeriodMs(20_000));
      await expect.poll(async () => (await store.feed.read(before)).reset, { interval: 20 }).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("prunes a quarter of the retention apart, from each second to each minute", () => {
    expect(feedPrunePeriodMs(60_000)).toBe(15_000);
    expect(feedPrunePeriodMs(DEFAULT_FEED_RETENTION_MS)).toBe(60_000);
    expect(feedPrunePeriodMs(2_000)).toBe(1_000);
  });
});
