import { describe, expect, it } from "vitest";
import { isEngineError } from "../base/errors.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

describe("a member's traits are in the traits catalog, as a Placement provider's are", () => {
  it("a CUSTOM_ trait a member names is created; Placement then lists it and finds the member by it", async () => {
    const { engine } = await testCluster();
    expect(await engine.providers.listTraits({ names: ["CUSTOM_GPU"] })).toEqual([]);
    await addMember(engine, "m1", { traits: ["HW_CPU_X86_AVX2", "CUSTOM_GPU"] });
    expect(await engine.providers.listTraits({ names: ["CUSTOM_GPU", "HW_CPU_X86_AVX2"] })).toEqual([
      "CUSTOM_GPU",
      "HW_CPU_X86_AVX2",
    ]);
    expect(await engine.providers.listTraits({ associated: true, prefix: "CUSTOM_" })).toEqual([
      "CUSTOM_GPU",
    ]);
    // Held by the member: Placement refuses to delete it.
    const inUse = await failure(engine.providers.deleteTrait("CUSTOM_GPU"));
    expect(inUse.kind).toBe("conflict");
    expect(inUse.message).toBe("The trait CUSTOM_GPU is in use by a resource provider.");
  });

  it("an edit (PUT or PATCH) that names a new CUSTOM_ trait creates it too", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1");
    await engine.members.update("m1", { traits: ["CUSTOM_FAST"] });
    await engine.members.patch("m1", { traits: ["CUSTOM_FAST", "CUSTOM_NVME"] });
    expect(await engine.providers.listTraits({ prefix: "CUSTOM_" })).toEqual(["CUSTOM_FAST", "CUSTOM_NVME"]);
    expect(engine.members.get("m1").record.traits).toEqual(["CUSTOM_FAST", "CUSTOM_NVME"]);
  });

  it("a name that is neither standard nor CUSTOM_ is refused with Placement's text, and nothing is written", async () => {
    const { engine } = await testCluster();
    const refused = await failure(addMember(engine, "m1", { traits: ["SSD"] }));
    expect(isEngineError(refused, "invalid")).toBe(true);
    expect(refused.message).toContain('start with the prefix "CUSTOM_"');
    expect(engine.members.list()).toEqual([]);
    await addMember(engine, "m2");
    const edit = await failure(engine.members.patch("m2", { traits: ["GPU"] }));
    expect(edit.kind).toBe("invalid");
    expect(engine.members.get("m2").record.traits).toEqual([]);
  });
});
