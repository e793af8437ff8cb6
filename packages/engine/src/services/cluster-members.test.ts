import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { addMember } from "../testing/cluster.fixture.js";
import { Engine } from "./engine.js";

describe("ClusterMembers.architectures", () => {
  it("lists each member architecture once, sorted, and follows members leaving", async () => {
    const engine = await Engine.open({ store: new MemoryStore(), clock: new ManualClock() });
    expect(engine.members.architectures()).toEqual([]);
    await addMember(engine, "n1", { architecture: "x86_64" });
    await addMember(engine, "n2", { architecture: "aarch64" });
    await addMember(engine, "n3", { architecture: "x86_64" });
    expect(engine.members.architectures()).toEqual(["aarch64", "x86_64"]);
    await engine.members.delete("n2");
    expect(engine.members.architectures()).toEqual(["x86_64"]);
  });
});
