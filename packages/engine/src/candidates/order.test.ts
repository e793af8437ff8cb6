import { describe, expect, it } from "vitest";
import { MemberState } from "../model/member-state.js";
import { newMember } from "../testing/fixtures.js";
import { orderByKeys } from "./order.js";
import { orderByLoad } from "./rankers/fewest-instances.js";

function members(loads: number[]): MemberState[] {
  return loads.map((load, index) => {
    const member = new MemberState({
      ...newMember(`m${index}`),
      generation: 1,
      joinOrder: index + 1,
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    member.instanceCount = load;
    return member;
  });
}

/** The reference: a comparison sort on (key, position). */
function reference(input: MemberState[], keys: number[]): string[] {
  return input
    .map((member, index) => ({ member, index }))
    .sort((a, b) => keys[a.index]! - keys[b.index]! || a.index - b.index)
    .map(({ member }) => member.name);
}

describe("orderByKeys (stable: equal keys keep input order)", () => {
  it("orders as a comparison sort does, by counting sort or not", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const [size, spread, offset] of [
      [1, 3, 0],
      [2, 1, 0],
      [50, 3, 0],
      [300, 40, 0],
      [60, 5, -3], // negative keys (compact placement groups rank by minus the count)
      [40, 1_000_000, 0], // too wide for buckets: the comparison sort answers
    ] as const) {
      const keys = Array.from({ length: size }, () => Math.floor(next() * spread) + offset);
      const input = members(keys);
      expect(orderByKeys(input, Float64Array.from(keys)).map((member) => member.name)).toEqual(
        reference(input, keys),
      );
    }
  });

  it("orders fractional keys with the comparison sort", () => {
    const input = members([0, 0, 0, 0]);
    const keys = [0.5, -1.25, 0.5, 0.1];
    expect(orderByKeys(input, Float64Array.from(keys)).map((member) => member.name)).toEqual([
      "m1",
      "m3",
      "m0",
      "m2",
    ]);
  });
});

describe("orderByLoad (the default policy's order)", () => {
  it("puts the fewest instances first, ties in join order", () => {
    expect(orderByLoad(members([2, 0, 1, 0])).map((member) => member.name)).toEqual(["m1", "m3", "m2", "m0"]);
  });

  it("counts in-flight placements in the load", () => {
    const input = members([2, 1, 1]);
    input[1]!.pendingCount = 2;
    expect(orderByLoad(input).map((member) => member.name)).toEqual(["m2", "m0", "m1"]);
  });
});
