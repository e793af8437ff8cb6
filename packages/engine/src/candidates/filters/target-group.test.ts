import { describe, expect, it } from "vitest";
import { targetGroupFilter } from "./target-group.js";

describe("target group filter", () => {
  const inGroups = (...groups: string[]) => ({ name: "n1", groups });

  it("admits every member without an @group target", () => {
    expect(targetGroupFilter.reject(inGroups(), { target: null })).toBeUndefined();
    expect(targetGroupFilter.reject(inGroups(), { target: { kind: "member", name: "n1" } })).toBeUndefined();
  });

  it("with @group, admits only the group's members", () => {
    const target = { kind: "group", name: "rack-a" } as const;
    expect(targetGroupFilter.reject(inGroups("rack-b", "rack-a"), { target })).toBeUndefined();
    expect(targetGroupFilter.reject(inGroups("rack-b"), { target })).toMatchObject({
      code: "group:rack-a",
      one: 'is not in group "rack-a"',
      many: 'are not in group "rack-a"',
    });
  });
});
