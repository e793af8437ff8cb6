import { describe, expect, it } from "vitest";
import { rejection } from "../candidates/rejection.js";
import { REJECTION_SAMPLE, RejectionTally } from "./tally.js";

const offline = rejection("offline", "is offline", "are offline");
const full = rejection("capacity:VCPU", "has too little VCPU", "have too little VCPU", true);

describe("RejectionTally", () => {
  it("counts every member, names the first few, most frequent first and ties in first-seen order", () => {
    const tally = new RejectionTally();
    tally.add("a", offline);
    for (let index = 0; index < REJECTION_SAMPLE + 3; index++) tally.add(`f${index}`, full);
    tally.add("b", offline);
    const groups = tally.groups();
    expect(groups.map((group) => [group.code, group.count, group.text])).toEqual([
      ["capacity:VCPU", REJECTION_SAMPLE + 3, `${REJECTION_SAMPLE + 3} members have too little VCPU`],
      ["offline", 2, "2 members are offline"],
    ]);
    expect(groups[0]!.members).toHaveLength(REJECTION_SAMPLE);
    expect(groups[0]!.capacity).toBe(true);
    const tie = new RejectionTally();
    tie.add("x", full);
    tie.add("y", offline);
    expect(tie.groups().map((group) => group.code)).toEqual(["capacity:VCPU", "offline"]);
  });

  it("copies independently (a cached tally is every placement's starting point)", () => {
    const cached = new RejectionTally();
    cached.add("a", offline);
    const copy = cached.copy();
    copy.add("b", offline);
    copy.add("c", full);
    expect(cached.groups()).toEqual([
      { code: "offline", count: 1, text: "1 member is offline", members: ["a"], capacity: false },
    ]);
    expect(copy.groups().map((group) => group.count)).toEqual([2, 1]);
  });
});
