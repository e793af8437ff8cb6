import type { ClusterCapacity } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { capacityHeadline, largestText, limitedByText, takingMembers } from "./capacity-text.js";

const answer: ClusterCapacity = {
  instances: 1200,
  limited_by: "capacity:MEMORY_MB",
  counted_by: "closed-form",
  scriptlet_ignored: false,
  members: [
    { name: "n1", instances: 2, limited_by: "capacity:VCPU" },
    { name: "n2", instances: 0, limited_by: "offline" },
    { name: "n3", instances: 1198, limited_by: "capacity:MEMORY_MB" },
    { name: "n4", instances: 0, limited_by: "lack:CUSTOM_GPU" },
  ],
  project: { name: "default", limits: [] },
  largest: { multiple: 4, location: "n3", resources: { VCPU: 8, MEMORY_MB: 8192 } },
  flavors: [],
  largest_flavor: null,
};

describe("the capacity panel's words", () => {
  it("says what stops more instances", () => {
    expect(limitedByText("capacity:MEMORY_MB")).toBe("Memory runs out");
    expect(limitedByText("lack:CUSTOM_GPU")).toBe("has no CUSTOM_GPU");
    expect(limitedByText("limits.instances")).toBe("project limits.instances");
    expect(limitedByText("spread:db")).toBe("placement group db (strict spread)");
    expect(limitedByText("offline")).toBe("offline");
    expect(limitedByText("")).toBe("nothing");
  });

  it("heads with the total and shows the members taking most first", () => {
    expect(capacityHeadline(answer)).toBe("1,200 more fit (Memory runs out)");
    const { shown, more, none } = takingMembers(answer, 1);
    expect(shown.map((member) => member.name)).toEqual(["n3"]);
    expect({ more, none }).toEqual({ more: 1, none: 2 });
  });

  it("names the largest multiple and where it goes", () => {
    expect(largestText(answer)).toBe("4 × this shape on n3 (vCPU 8, Memory 8 GiB)");
    expect(largestText({ ...answer, largest: { multiple: 0, location: null, resources: {} } })).toBeNull();
  });
});
