import { describe, expect, it } from "vitest";
import { projectGroupsFilter } from "./project-groups.js";

describe("restricted.cluster.groups filter", () => {
  const inGroups = (...groups: string[]) => ({ name: "n1", groups });

  it("admits every member when the project names no groups", () => {
    expect(projectGroupsFilter.reject(inGroups(), { allowedGroups: [], projectName: "p" })).toBeUndefined();
  });

  it("admits members in any allowed group and names the project otherwise", () => {
    const request = { allowedGroups: ["blue", "green"], projectName: "team" };
    expect(projectGroupsFilter.reject(inGroups("red", "green"), request)).toBeUndefined();
    expect(projectGroupsFilter.reject(inGroups("red"), request)).toMatchObject({
      code: "project-groups",
      one: 'is outside the groups project "team" may use',
      many: 'are outside the groups project "team" may use',
    });
  });
});
