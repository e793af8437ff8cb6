/**
 * An engine's own claims reach its model as they commit, without a read of
 * the change feed, and never twice: not when a read brings their entries
 * later, not when a read's answer overtakes the claim's own, not across a
 * re-hydration; a claim whose answer never arrived is applied by the read
 * that brings its entry.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { EngineError } from "../base/errors.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { Engine } from "../services/engine.js";
import type { FeedRead } from "../store/change-feed.js";
import type { Claim, ClaimResult } from "../store/port.js";
import { addMember } from "../testing/cluster.fixture.js";

const ONE_CPU = { config: { "limits.cpu": "1", "limits.memory": "1GiB" } };

/** A MemoryStore whose feed reads are counted and whose claims can be held between commit and answer. */
class ObservedStore extends MemoryStore {
  feedReads = 0;
  /** Runs after a claim committed, before its answer is given (undefined: answer at once). */
  afterCommit: ((result: ClaimResult) => Promise<void>) | undefined;

  constructor() {
    super();
    const read = this.feed.read.bind(this.feed);
    this.feed.read = (cursor: string): Promise<FeedRead> => {
      this.feedReads += 1;
      return read(cursor);
    };
  }

  override async claim(claim: Claim): Promise<ClaimResult> {
    const result = await super.claim(claim);
    await this.afterCommit?.(result);
    return result;
  }
}

async function engineOn(store: ObservedStore, clock = new ManualClock()) {
  const engine = await Engine.open({ store, clock });
  return engine;
}

/** One engine on its own observed store, with the member "n1". */
async function oneMember() {
  const store = new ObservedStore();
  const engine = await engineOn(store);
  await addMember(engine, "n1");
  return { store, engine };
}

/** The model's view of a member against the store's rows: usage and instance count. */
async function expectModelMatchesStore(engine: Engine, store: MemoryStore, member: string) {
  const [stored] = await store.memberUsage([member]);
  const info = engine.members.get(member);
  expect(info.usage.used).toEqual(stored!.used);
  expect(info.usage.pending).toEqual({});
  expect(info.instances).toBe((await store.listInstances()).filter((i) => i.location === member).length);
}

describe("an engine's own claims", () => {
  it("are in its model when the create answers, with no read of the feed after the commit", async () => {
    const { store, engine } = await oneMember();
    await engine.sync();
    const reads = store.feedReads;
    await engine.instances.create({ name: "a", ...ONE_CPU });
    const info = engine.members.get("n1");
    expect(info.instances).toBe(1);
    expect(info.usage.used).toEqual({ VCPU: 1, MEMORY_MB: 1024 });
    expect(info.usage.pending).toEqual({});
    // The create read before planning (its own member write made the model stale), not after.
    expect(store.feedReads - reads).toBeLessThanOrEqual(1);
    const afterCreate = store.feedReads;
    await engine.instances.delete("default", "a");
    expect(engine.members.get("n1").usage.used).toEqual({});
    expect(engine.members.get("n1").instances).toBe(0);
    expect(store.feedReads - afterCreate).toBeLessThanOrEqual(1);
  });

  it("are skipped when a later read brings their entries", async () => {
    const { store, engine } = await oneMember();
    for (const name of ["a", "b", "c"]) await engine.instances.create({ name, ...ONE_CPU });
    await engine.instances.delete("default", "b");
    await engine.sync();
    await expectModelMatchesStore(engine, store, "n1");
    expect(engine.members.get("n1").instances).toBe(2);
  });

  it("count once when a read's answer overtakes the claim's own", async () => {
    const { store, engine } = await oneMember();
    // The entry is read (and applied) after the commit and before the claim answers.
    store.afterCommit = () => engine.sync();
    await engine.instances.create({ name: "a", ...ONE_CPU });
    store.afterCommit = undefined;
    await expectModelMatchesStore(engine, store, "n1");
    await engine.sync();
    await expectModelMatchesStore(engine, store, "n1");
  });

  it("whose answer is lost are applied by the read that brings their entries", async () => {
    const { store, engine } = await oneMember();
    // Committed, but the engine hears a failure (as when the connection drops at COMMIT).
    store.afterCommit = async () => {
      store.afterCommit = undefined;
      throw new EngineError("unavailable", "connection lost at COMMIT");
    };
    await expect(engine.instances.create({ name: "a", ...ONE_CPU })).rejects.toThrow(
      "connection lost at COMMIT",
    );
    expect(engine.members.get("n1").instances).toBe(0);
    await engine.sync();
    await expectModelMatchesStore(engine, store, "n1");
    expect(engine.members.get("n1").instances).toBe(1);
  });

  it("in flight during a re-hydration are in the snapshot or applied to the new model, never both", async () => {
    const { store, engine } = await oneMember();
    let refreshed: Promise<void> | undefined;
    // A re-hydration asked for while the claim is committed but not yet answered waits for it.
    store.afterCommit = async () => {
      store.afterCommit = undefined;
      refreshed = engine.refresh();
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await engine.instances.create({ name: "a", ...ONE_CPU });
    await refreshed;
    await expectModelMatchesStore(engine, store, "n1");
    // A claim started during a re-hydration waits for it, then counts once.
    const again = engine.refresh();
    await engine.instances.create({ name: "b", ...ONE_CPU });
    await again;
    await engine.sync();
    await expectModelMatchesStore(engine, store, "n1");
    expect(engine.members.get("n1").instances).toBe(2);
  });

  it("of two engines on one store are each applied once in both models", async () => {
    const store = new ObservedStore();
    const clock = new ManualClock();
    const a = await engineOn(store, clock);
    const b = await engineOn(store, clock);
    await addMember(a, "n1");
    await Promise.all([
      a.instances.create({ name: "a1", ...ONE_CPU }),
      b.instances.create({ name: "b1", ...ONE_CPU }),
      a.instances.create({ name: "a2", ...ONE_CPU }),
      b.instances.create({ name: "b2", ...ONE_CPU }),
    ]);
    await a.instances.delete("default", "b1");
    for (const engine of [a, b]) {
      await engine.sync();
      await expectModelMatchesStore(engine, store, "n1");
      expect(engine.members.get("n1").instances).toBe(3);
    }
  });
});

describe("an engine behind what a memory store's feed keeps", () => {
  it("re-hydrates, and its model matches the store", async () => {
    // Keeps ~2 single creates' entries: the second engine falls behind after a few.
    const store = new MemoryStore({ feedWeightKept: 10 });
    const clock = new ManualClock();
    const a = await Engine.open({ store, clock });
    const b = await Engine.open({ store, clock });
    await addMember(a, "n1");
    await b.sync();
    for (const name of ["a1", "a2", "a3", "a4", "a5", "a6"]) await a.instances.create({ name, ...ONE_CPU });
    const read = await store.feed.read("0");
    expect(read.reset).toBe(true);
    await b.sync();
    await expectModelMatchesStore(b, store, "n1");
    expect(b.members.get("n1").instances).toBe(6);
    // And it goes on in step with its own and the other engine's claims.
    await b.instances.create({ name: "b1", ...ONE_CPU });
    await a.instances.delete("default", "a1");
    for (const engine of [a, b]) {
      await engine.sync();
      await expectModelMatchesStore(engine, store, "n1");
      expect(engine.members.get("n1").instances).toBe(6);
    }
  });
});
