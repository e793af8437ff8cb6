import { describe, expect, it } from "vitest";
import { inventory } from "../testing/fixtures.js";
import { lxdMemberState } from "../testing/member-reports.fixture.js";
import { memberConditions, type ObservedMember, WARNING_TYPES } from "./warning-conditions.js";

const NOW = new Date("2026-01-02T00:00:00.000Z");
const HOUR = 3_600_000;

function member(
  overrides: Partial<ObservedMember["record"]> = {},
  status = "Online",
  used = {},
): ObservedMember {
  return {
    record: {
      name: "n1",
      evacuated: false,
      lastHeartbeat: "2026-01-01T23:59:59.000Z",
      inventories: { VCPU: inventory(8) },
      resources: null,
      state: null,
      ...overrides,
    },
    status,
    usage: { used },
  };
}

const typesOf = (members: ObservedMember[], since = new Map<string, Date>(), afterMs = 24 * HOUR) =>
  memberConditions(members, NOW, since, afterMs).map((condition) => condition.type);

describe("memberConditions", () => {
  it("holds nothing for a healthy member", () => {
    expect(typesOf([member({}, "Online", { VCPU: 8 })])).toEqual([]);
  });

  it("an offline member, naming its last heartbeat (or that it never sent one)", () => {
    const [seen] = memberConditions([member({}, "Offline")], NOW, new Map(), HOUR);
    expect(seen).toMatchObject({
      type: WARNING_TYPES.offline,
      severity: "high",
      location: "n1",
      project: "",
      entityUrl: "/1.0/cluster/members/n1",
    });
    expect(seen!.message).toContain("2026-01-01T23:59:59.000Z");
    const [never] = memberConditions([member({ lastHeartbeat: null }, "Offline")], NOW, new Map(), HOUR);
    expect(never!.message).toContain("never sent a heartbeat");
  });

  it("an evacuation only once it has lasted longer than the threshold; 0 disables it", () => {
    const evacuated = [member({ evacuated: true })];
    const at = (msAgo: number) => new Map([["n1", new Date(NOW.getTime() - msAgo)]]);
    expect(typesOf(evacuated, at(24 * HOUR))).toEqual([]);
    expect(typesOf(evacuated, at(24 * HOUR + 1))).toEqual([WARNING_TYPES.evacuated]);
    expect(typesOf(evacuated, at(2 * HOUR), HOUR)).toEqual([WARNING_TYPES.evacuated]);
    expect(typesOf(evacuated, at(1000 * HOUR), 0)).toEqual([]);
    // Restored: no warning whatever the map says.
    expect(typesOf([member({ evacuated: false })], at(48 * HOUR))).toEqual([]);
  });

  it("an inventory whose capacity is below what the member's instances use", () => {
    const conditions = memberConditions([member({}, "Online", { VCPU: 9 })], NOW, new Map(), HOUR);
    expect(conditions).toMatchObject([
      {
        type: WARNING_TYPES.inventoryBelowUsage,
        entityUrl: "/1.0/cluster/members/n1/inventories/VCPU",
        message: 'Inventory VCPU of member "n1" has capacity 8, below the 9 its instances use',
      },
    ]);
    // The allocation ratio counts: 8 VCPU at ratio 2 hold 16.
    const ratio = member({ inventories: { VCPU: inventory(8, { allocationRatio: 2 }) } }, "Online", {
      VCPU: 16,
    });
    expect(typesOf([ratio])).toEqual([]);
  });

  it("an explicit inventory above what the member reports; a smaller or derived one is not", () => {
    // The member reports 4 threads, 16 GiB of memory and a 100 GiB pool.
    const state = lxdMemberState(16, 4, 100);
    const above = member({ state, inventories: { VCPU: inventory(8), MEMORY_MB: inventory(8192) } });
    expect(memberConditions([above], NOW, new Map(), HOUR)).toMatchObject([
      {
        type: WARNING_TYPES.inventoryAboveReported,
        severity: "moderate",
        entityUrl: "/1.0/cluster/members/n1/inventories/VCPU",
        message: 'Inventory VCPU of member "n1" is set to a total of 8, above the 4 the member reports',
      },
    ]);
    expect(
      typesOf([member({ state, inventories: { VCPU: inventory(4), DISK_GB: inventory(101) } })]),
    ).toEqual([WARNING_TYPES.inventoryAboveReported]);
    expect(typesOf([member({ state, inventories: { VCPU: inventory(8, { source: "derived" }) } })])).toEqual(
      [],
    );
    // Nothing reported: nothing to disagree with.
    expect(typesOf([member({ inventories: { VCPU: inventory(64) } })])).toEqual([]);
    // The hardware report wins over the state where it says something.
    const resources = { cpu: { total: 16 }, memory: { total: 16 * 1024 ** 3 } };
    expect(typesOf([member({ state, resources, inventories: { VCPU: inventory(8) } })])).toEqual([]);
  });
});
