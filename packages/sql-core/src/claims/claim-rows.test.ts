import type { CheckedClaim, InstanceRecord } from "@berth/engine";
import { newInstance } from "@berth/engine/testing";
import { describe, expect, it } from "vitest";
import { claimRows } from "./claim-rows.js";

const stored = (id: string, profiles: string[]): InstanceRecord => ({
  ...newInstance(id, "node1", {}, { id, profiles }),
  revision: 1,
  allocations: [],
});

describe("claim rows", () => {
  it("link each instance to its profiles once, except the default profile, which never goes", () => {
    const claim = {
      stored: [stored("i1", ["default"]), stored("i2", ["gpu", "default", "gpu", "big"])],
      usageChanges: [],
      projectChanges: new Map(),
    } as unknown as CheckedClaim;
    expect(claimRows(claim, new Map([["node1", 1]])).links).toEqual([
      ["i2", "default", "gpu"],
      ["i2", "default", "big"],
    ]);
  });
});
