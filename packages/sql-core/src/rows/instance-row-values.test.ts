import type { InstanceRecord } from "@berth/engine";
import { newInstance } from "@berth/engine/testing";
import { describe, expect, it } from "vitest";
import { INSTANCE_COLUMNS, instanceRowValues, mergedAllocationRows } from "./instance-row-values.js";

const record: InstanceRecord = {
  ...newInstance("web", "node1", {}, { id: "i1", profiles: ["default"], secondary: "node2" }),
  revision: 1,
  allocations: [
    { member: "node1", resourceClass: "VCPU", ledger: "used", amount: 1 },
    { member: "node1", resourceClass: "MEMORY_MB", ledger: "used", amount: 512 },
    { member: "node1", resourceClass: "VCPU", ledger: "used", amount: 1 },
    { member: "gone", resourceClass: "VCPU", ledger: "used", amount: 0 },
  ],
};

const memberIds = new Map([
  ["node1", 1],
  ["node2", 2],
]);

describe("instance rows", () => {
  it("lists a value per column, JSON columns through the dialect's encoder and null kept null", () => {
    const values = instanceRowValues(record, memberIds, (value) => JSON.stringify(value));
    expect(values).toHaveLength(INSTANCE_COLUMNS.length);
    const byColumn = Object.fromEntries(INSTANCE_COLUMNS.map((column, index) => [column, values[index]]));
    expect(byColumn).toMatchObject({ member_id: 1, secondary_id: 2, profiles: '["default"]', source: null });
  });

  it("merges repeated (member, class, ledger) rows in list order and drops rows of members that are gone", () => {
    expect(mergedAllocationRows(record, memberIds)).toEqual([
      ["i1", 1, "VCPU", "used", 2, 0],
      ["i1", 1, "MEMORY_MB", "used", 512, 1],
    ]);
  });
});
