import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import type { MemberRecord } from "../store/records.js";
import { addMember } from "../testing/cluster.fixture.js";
import { Engine } from "./engine.js";

/** A MemoryStore that counts full member reads (its snapshot makes one too) and snapshots. */
class CountingStore extends MemoryStore {
  memberReads = 0;
  snapshots = 0;
  override async listMembers(): Promise<MemberRecord[]> {
    this.memberReads += 1;
    return super.listMembers();
  }
  override async snapshot() {
    this.snapshots += 1;
    return super.snapshot();
  }
}

describe("Engine.open", () => {
  it("has members that joined before the default group existed join it, in the store and the model", async () => {
    const store = new CountingStore();
    const clock = new ManualClock();
    const first = await Engine.open({ store, clock });
    await addMember(first, "n1");
    await addMember(first, "n2");
    // As an older berthd left them: no default group.
    await store.updateMember("n1", { groups: [] });
    store.snapshots = 0;
    const second = await Engine.open({ store, clock });
    expect((await store.getMember("n1"))?.groups).toEqual(["default"]);
    expect(second.members.get("n1").record.groups).toEqual(["default"]);
    expect(second.members.get("n2").record.groups).toEqual(["default"]);
    // The model was built from a snapshot taken after the update.
    expect(store.snapshots).toBe(2);
  });

  it("reads the members once, in its snapshot, when every member is in the default group", async () => {
    const store = new CountingStore();
    const clock = new ManualClock();
    await addMember(await Engine.open({ store, clock }), "n1");
    store.memberReads = 0;
    store.snapshots = 0;
    const engine = await Engine.open({ store, clock });
    expect(engine.members.list().map((member) => member.record.name)).toEqual(["n1"]);
    expect(store.snapshots).toBe(1);
    expect(store.memberReads).toBe(1);
  });
});
