import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { EngineError } from "../base/errors.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import type { MemberRecord } from "../store/records.js";
import { addGroups, addMember } from "../testing/cluster.fixture.js";
import { Engine } from "./engine.js";

/** A MemoryStore that counts full member reads, to see when an engine re-syncs. */
class CountingStore extends MemoryStore {
  memberReads = 0;
  override async listMembers(): Promise<MemberRecord[]> {
    this.memberReads += 1;
    return super.listMembers();
  }
}

async function twoEngines() {
  const store = new CountingStore();
  const clock = new ManualClock();
  const a = await Engine.open({ store, clock });
  const b = await Engine.open({ store, clock });
  return { store, clock, a, b };
}

describe("engines sharing one store see each other's changes", () => {
  it("members registered, changed and removed by one engine are visible to the other after sync", async () => {
    const { a, b } = await twoEngines();
    await addMember(a, "n1");
    await b.sync();
    expect(b.listMembers().map((member) => member.record.name)).toEqual(["n1"]);
    expect(b.getMember("n1").status).toBe("Online");
    await a.updateMember("n1", { description: "rack 4" });
    await b.sync();
    expect(b.getMember("n1").record.description).toBe("rack 4");
    await a.deleteMember("n1");
    await b.sync();
    expect(b.listMembers()).toEqual([]);
    expect(() => b.getMember("n1")).toThrow('Cluster member "n1" not found');
  });

  it("every operation syncs first: placement follows members, projects, groups and config of the other engine", async () => {
    const { a, b } = await twoEngines();
    await addGroups(a, "fast");
    await addMember(a, "n1");
    await addMember(a, "n2", { groups: ["fast"] });
    // No explicit sync: the create itself notices the new members and group.
    expect((await b.createInstance({ name: "x" }, { target: "@fast" })).instance.location).toBe("n2");
    await a.catalog.createProject({ name: "p", description: "", config: {} });
    expect((await b.createInstance({ name: "y" }, { project: "p" })).instance.location).toBe("n1");
    await a.updateMember("n1", { config: { "scheduler.instance": "manual" } });
    expect((await b.createInstance({ name: "z" })).instance.location).toBe("n2");
    await a.setConfig({ "cluster.offline_threshold": "30" });
    expect((await b.getConfig()).values["cluster.offline_threshold"]).toBe("30");
  });

  it("a heartbeat of its own never hides another engine's change", async () => {
    const { a, b } = await twoEngines();
    await addMember(a, "n1");
    await b.sync();
    // b's heartbeat does not move the counter; a's description change does, by one.
    const beat = b.heartbeat("n1");
    await a.updateMember("n1", { description: "moved to rack 9" });
    await beat;
    await b.sync();
    expect(b.getMember("n1").record.description).toBe("moved to rack 9");
  });

  it("an engine's own writes do not make it re-read members", async () => {
    const { store, a } = await twoEngines();
    const before = store.memberReads;
    await addGroups(a, "g");
    for (const name of ["n1", "n2", "n3"]) await addMember(a, name, { groups: ["g"] });
    await a.updateMember("n1", { description: "d" });
    await a.catalog.createProject({ name: "p", description: "", config: {} });
    await a.setConfig({ "cluster.offline_threshold": "30" });
    for (let i = 0; i < 5; i++) await a.createInstance({ name: `i${i}` });
    expect(store.memberReads).toBe(before);
  });

  it("a move to a member only the other engine registered is checked against that member", async () => {
    const { a, b, clock } = await twoEngines();
    await addMember(a, "n1");
    await b.createInstance({ name: "x" });
    clock.advance(60_000);
    await addMember(a, "n2");
    const refused = await b.moveInstance("default", "x", "n1").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).message).toBe("Requested target server is the same as current server");
    expect((await b.moveInstance("default", "x", "n2")).instance.location).toBe("n2");
  });
});
