import { describe, expect, it } from "vitest";
import type { MemberRecord } from "../store/records.js";
import { inventory, newMember } from "../testing/fixtures.js";
import { MemberState } from "./member-state.js";

function record(name: string, vcpus: number): MemberRecord {
  return {
    ...newMember(name, { inventories: { VCPU: inventory(vcpus) } }),
    generation: 1,
    joinOrder: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("MemberState remembered fit verdicts", () => {
  it("answers for the same demand object until inventories or consumption change", () => {
    const member = new MemberState(record("a", 8));
    const demand = [["VCPU", 2]] as const;
    expect(member.knownFit(demand)).toBeUndefined();
    member.rememberFit(demand, true);
    expect(member.knownFit(demand)).toBe(true);
    // Another demand object (even an equal one) is not what was remembered.
    expect(member.knownFit([["VCPU", 2]])).toBeUndefined();

    member.addPending("VCPU", 2);
    expect(member.knownFit(demand)).toBeUndefined();
    member.rememberFit(demand, false);
    expect(member.knownFit(demand)).toBe(false);

    member.setUsage({ member: "a", used: { VCPU: 1 }, forthcoming: {} });
    expect(member.knownFit(demand)).toBeUndefined();
    member.rememberFit(demand, true);

    member.setRecord(record("a", 4));
    expect(member.knownFit(demand)).toBeUndefined();
  });

  it("keeps the name it was created with and mirrors evacuated", () => {
    const first = record("a", 8);
    const member = new MemberState(first);
    // A sync hands over an equal record with its own copy of the name.
    const copy = { ...first, name: ["a"].join(""), evacuated: true };
    member.setRecord(copy);
    expect(member.name).toBe("a");
    expect(member.evacuated).toBe(true);
    expect(member.record).toBe(copy);
  });
});
