/**
 * A server whose wake-up for another server's change has not arrived yet
 * (a notification late or lost) must not refuse a name that change
 * created: "not found" and "doesn't exist" are only answered by a model
 * that has caught up with the store's change feed, as a 507 is.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import type { ChangeFeed } from "../store/change-feed.js";
import type { Store } from "../store/port.js";
import { addGroups, addMember } from "../testing/cluster.fixture.js";
import { Engine } from "./engine.js";

/** The same store, seen through a feed whose wake-ups never come while it claims to be listening. */
function withSilentWakeUps(store: MemoryStore): Store {
  const feed: ChangeFeed = {
    read: (cursor) => store.feed.read(cursor),
    watch: () => ({ live: () => true, stop: () => undefined }),
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === "feed") return feed;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("a refusal for a missing name waits for a fresh read of the feed", () => {
  it("places on a member, group and project another engine created a moment ago", async () => {
    const store = new MemoryStore();
    const clock = new ManualClock();
    const late = await Engine.open({ store: withSilentWakeUps(store), clock });
    const other = await Engine.open({ store, clock });
    await addMember(other, "n1");
    // The late engine reads the feed here, and then considers itself current for a second.
    expect((await late.createInstance({ name: "first" })).instance.location).toBe("n1");

    await addGroups(other, "fast");
    await addMember(other, "n2", { groups: ["fast"] });
    await other.catalog.createProject({ name: "p", description: "", config: {} });
    expect((await late.createInstance({ name: "x" }, { target: "n2" })).instance.location).toBe("n2");
    expect((await late.createInstance({ name: "y" }, { target: "@fast" })).instance.location).toBe("n2");
    expect((await late.createInstance({ name: "z" }, { project: "p" })).instance.project).toBe("p");
    const bulk = await late.bulkCreate([{ name: "b1" }, { name: "b2" }], { target: "n2" });
    expect(bulk.instances.map((instance) => instance.location)).toEqual(["n2", "n2"]);
  });

  it("still refuses a name the store does not have, after that read", async () => {
    const store = new MemoryStore();
    const late = await Engine.open({ store: withSilentWakeUps(store) });
    await addMember(late, "n1");
    await expect(late.createInstance({ name: "x" }, { target: "nope" })).rejects.toThrow(
      'Cluster member "nope" not found',
    );
  });
});
