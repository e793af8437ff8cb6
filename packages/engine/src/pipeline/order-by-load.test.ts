import { describe, expect, it } from "vitest";
import { MemberState } from "../model/member-state.js";
import { newMember } from "../store/fixtures.js";
import { byLoad, orderByLoad } from "./candidates.js";

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

describe("orderByLoad (counting sort for join-ordered candidates)", () => {
  it("orders exactly as byLoad: fewest instances first, ties in join order", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const [size, spread] of [
      [1, 3],
      [2, 1],
      [50, 3],
      [300, 40],
      [40, 1_000_000], // too wide for buckets: the comparison sort answers
    ] as const) {
      const input = members(Array.from({ length: size }, () => Math.floor(next() * spread)));
      expect(orderByLoad(input).map((member) => member.name)).toEqual(
        byLoad(input).map((member) => member.name),
      );
    }
  });

  it("counts in-flight placements in the load", () => {
    const input = members([2, 1, 1]);
    input[1]!.pendingCount = 2;
    expect(orderByLoad(input).map((member) => member.name)).toEqual(["m2", "m0", "m1"]);
  });
});
