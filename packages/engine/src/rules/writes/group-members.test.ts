import { describe, expect, it } from "vitest";
import { checkGroupMembers, type GroupMemberRow } from "./group-members.js";

const row = (name: string, joinOrder: number, groups: string[]): GroupMemberRow => ({
  name,
  joinOrder,
  groups,
});
const members = [row("a", 1, ["default", "gpu"]), row("b", 2, ["default"]), row("c", 3, ["default"])];

describe("checkGroupMembers", () => {
  it("writes the joiners (group last) and the leavers, with a feed entry each", () => {
    const checked = checkGroupMembers("gpu", ["b"], { groupExists: true, members });
    expect(checked.writes).toEqual([
      { name: "a", joinOrder: 1, groups: ["default"] },
      { name: "b", joinOrder: 2, groups: ["default", "gpu"] },
    ]);
    expect(checked.entries).toEqual([
      { kind: "member", name: "a", joinOrder: 1, change: "updated" },
      { kind: "member", name: "b", joinOrder: 2, change: "updated" },
    ]);
  });

  it("writes nothing when the list is already the group's", () => {
    expect(checkGroupMembers("gpu", ["a"], { groupExists: true, members })).toEqual({
      writes: [],
      entries: [],
    });
  });

  it("never takes a member out of the default group", () => {
    expect(checkGroupMembers("default", ["a"], { groupExists: true, members }).writes).toEqual([]);
  });

  it("refuses an unknown group or member before anything is written", () => {
    expect(() => checkGroupMembers("gpu", [], { groupExists: false, members })).toThrow(
      'Cluster group "gpu" not found',
    );
    expect(() => checkGroupMembers("gpu", ["a", "x"], { groupExists: true, members })).toThrow(
      'Cluster member "x" not found',
    );
  });
});
