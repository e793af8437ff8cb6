import { describe, expect, it } from "vitest";
import { clusterOf, node, spec } from "../testing/snapshot.fixture.js";
import { placeInstance } from "./allocate.js";
import type { InstancePolicy } from "./policy.js";

const BANDS: InstancePolicy = {
  bands: [
    {
      min: { memorySize: 1000, diskSize: 1000, spindleUse: 1 },
      max: { memorySize: 1024, diskSize: 1024, spindleUse: 1 },
    },
    {
      min: { memorySize: 2000, diskSize: 2000, spindleUse: 2 },
      max: { memorySize: 2048, diskSize: 2048, spindleUse: 2 },
    },
  ],
  diskTemplates: [],
  vcpuRatio: 4,
  spindleRatio: 32,
};

describe("dedicated groups (exclusive storage)", () => {
  it("put a small instance where it breaks no room for a big one", () => {
    const dedicated = { exclusiveStorage: true, totalMemory: 2048, totalDisk: 2048 };
    const c = clusterOf([
      node("empty", "g1", 2048, { ...dedicated, freeDisk: 2048, freeSpindles: 2 }),
      node("half", "g1", 1024, { ...dedicated, freeDisk: 1024, freeSpindles: 1 }),
    ]);
    c.groups.set("g1", { ...c.groups.get("g1")!, policy: BANDS });
    const small = spec("s", "plain", 1000, { disks: [{ size: 1000, spindles: 1 }] });
    // The empty member could take one big instance; the half one none: a small one goes there.
    expect(placeInstance(c, small).chosen!.choice.nodes).toEqual(["half"]);
  });
});
