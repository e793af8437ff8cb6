import { describe, expect, it } from "vitest";
import { MemoryStore } from "../memory-store/memory-store.js";
import { Engine } from "../services/engine.js";
import type { MemberRecord } from "../store/records.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

/** A real memory store that counts how members are read (what a tick costs). */
class CountingStore extends MemoryStore {
  listings = 0;
  singleReads: string[] = [];
  override listMembers(): Promise<MemberRecord[]> {
    this.listings += 1;
    return super.listMembers();
  }
  override getMember(name: string): Promise<MemberRecord | undefined> {
    this.singleReads.push(name);
    return super.getMember(name);
  }
  resetCounts(): void {
    this.listings = 0;
    this.singleReads = [];
  }
}

describe("tick re-reads only members it has not heard from lately", () => {
  it("reads no member when every one sent a heartbeat within half the offline threshold", async () => {
    const store = new CountingStore();
    const { engine, clock } = await testCluster({ store });
    await engine.setConfig({ "cluster.offline_threshold": "20" });
    for (const name of ["n1", "n2", "n3"]) await addMember(engine, name);
    clock.advance(9_000);
    store.resetCounts();
    const report = await engine.tick();
    expect(report.offline).toEqual([]);
    expect(store.listings).toBe(0);
    expect(store.singleReads).toEqual([]);
  });

  it("re-reads just the quiet members, and sees heartbeats another engine received", async () => {
    const store = new CountingStore();
    const first = await testCluster({ store });
    await first.engine.setConfig({ "cluster.offline_threshold": "20" });
    for (const name of ["n1", "n2", "n3"]) await addMember(first.engine, name);
    const second = await Engine.open({ store, clock: first.clock });
    first.clock.advance(12_000);
    // n1 beats to the other engine only; n2 to this one; n3 stays silent.
    await first.engine.heartbeat("n1");
    await second.heartbeat("n2");
    store.resetCounts();
    const early = await second.tick();
    expect(early.offline).toEqual([]);
    expect(store.singleReads.sort()).toEqual(["n1", "n3"]);
    expect(store.listings).toBe(0);
    first.clock.advance(12_000);
    const late = await second.tick();
    // n1's heartbeat (12 s old) came from the store: online; n3 has been silent for 24 s.
    expect(late.offline).toEqual(["n3"]);
    expect(second.getMember("n1").status).toBe("Online");
  });

  it("lists every member once when many are quiet", async () => {
    const store = new CountingStore();
    const { engine, clock } = await testCluster({ store });
    await engine.setConfig({ "cluster.offline_threshold": "20" });
    for (let i = 0; i < 80; i++) await addMember(engine, `m${i}`);
    clock.advance(30_000);
    store.resetCounts();
    const report = await engine.tick();
    expect(report.offline.length).toBe(80);
    expect(store.listings).toBe(1);
    expect(store.singleReads).toEqual([]);
  });

  it("notices a member deleted behind its back and re-hydrates", async () => {
    const store = new CountingStore();
    const first = await testCluster({ store });
    await first.engine.setConfig({ "cluster.offline_threshold": "20" });
    for (const name of ["n1", "n2"]) await addMember(first.engine, name);
    const second = await Engine.open({ store, clock: first.clock });
    await first.engine.deleteMember("n2");
    first.clock.advance(15_000);
    await second.tick();
    expect(second.listMembers().map((member) => member.record.name)).toEqual(["n1"]);
  });
});
