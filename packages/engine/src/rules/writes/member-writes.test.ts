import { describe, expect, it } from "vitest";
import type { NewMember } from "../../store/port.js";
import { inventory, newMember } from "../../testing/fixtures.js";
import { checkMemberCreate } from "./member-create.js";
import { checkMemberDelete } from "./member-delete.js";
import { checkMemberInventories, grandfatheredUsage } from "./member-inventories.js";

const member = (overrides: Partial<NewMember> = {}) => newMember("m", { groups: ["default"], ...overrides });

describe("checkMemberCreate", () => {
  const found = { taken: false, groups: new Set(["default"]), customClasses: new Set(["CUSTOM_A"]) };

  it("stores groups and traits once each", () => {
    const checked = checkMemberCreate(member({ groups: ["default", "default"], traits: ["T", "T"] }), found);
    expect([checked.groups, checked.traits]).toEqual([["default"], ["T"]]);
  });

  it("refuses a taken name, an unknown group, an unknown custom class", () => {
    expect(() => checkMemberCreate(member(), { ...found, taken: true })).toThrow(
      'Cluster member "m" already exists',
    );
    expect(() => checkMemberCreate(member({ groups: ["gpu"] }), found)).toThrow(
      'Cluster group "gpu" not found',
    );
    expect(() =>
      checkMemberCreate(member({ inventories: { VCPU: inventory(1), CUSTOM_B: inventory(1) } }), found),
    ).toThrow('Resource class "CUSTOM_B" not found');
  });
});

describe("checkMemberInventories", () => {
  const ledger = { inventories: { VCPU: inventory(8) }, used: { VCPU: 3 }, forthcoming: {} };
  const reads = { member: { generation: 2, joinOrder: 5 }, customClasses: new Set<string>(), ledger };

  it("moves the generation once and announces the member; shrinking below usage is allowed", () => {
    expect(checkMemberInventories("m", { VCPU: inventory(1) }, 2, reads)).toEqual({
      generation: 3,
      entry: { kind: "member", name: "m", joinOrder: 5, change: "updated" },
    });
  });

  it("refuses a stale generation, and dropping a class the ledger holds", () => {
    expect(() => checkMemberInventories("m", { VCPU: inventory(8) }, 1, reads)).toThrow(
      "generation conflict",
    );
    expect(() => checkMemberInventories("m", {}, 2, reads)).toThrow(
      'Cannot remove inventory of VCPU from cluster member "m": 3 allocated',
    );
  });

  it("grandfathers usage beyond capacity only", () => {
    expect(grandfatheredUsage(inventory(2), 3)).toBe(3);
    expect(grandfatheredUsage(inventory(4), 3)).toBe(0);
  });
});

describe("checkMemberDelete", () => {
  it("refuses while an instance is hosted or holds allocations", () => {
    expect(() => checkMemberDelete("m", { hostedInstance: "web", allocatedInstance: undefined })).toThrow(
      'Cluster member "m" still hosts instances (e.g. "web")',
    );
    expect(() => checkMemberDelete("m", { hostedInstance: undefined, allocatedInstance: "i1" })).toThrow(
      'Cluster member "m" still holds allocations of instance i1',
    );
    expect(() =>
      checkMemberDelete("m", { hostedInstance: undefined, allocatedInstance: undefined }),
    ).not.toThrow();
  });
});
