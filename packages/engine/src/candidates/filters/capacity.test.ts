import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inventory } from "../../testing/fixtures.js";
import { memberState, TIME } from "../../testing/stack.fixture.js";
import { capacityFilter, demandOf } from "./capacity.js";

function member(consumed: Record<string, number> = {}) {
  const state = memberState("n1", {
    inventories: {
      VCPU: inventory(8, { allocationRatio: 2 }),
      MEMORY_MB: inventory(4096, { reserved: 512 }),
      DISK_GB: inventory(100, { stepSize: 10, minUnit: 10, maxUnit: 50 }),
    },
  });
  for (const [resourceClass, amount] of Object.entries(consumed)) state.addPending(resourceClass, amount);
  return state;
}

describe("capacity filter", () => {
  it("applies Placement's formula: (total - reserved) x allocation ratio, all ledgers counted", () => {
    const check = capacityFilter.bind({ resources: { VCPU: 4, MEMORY_MB: 1024 }, memoryShare: null });
    expect(check.reject(member({ VCPU: 12, MEMORY_MB: 2560 }), TIME)).toBeUndefined();
    expect(check.reject(member({ VCPU: 13 }), TIME)).toMatchObject({
      code: "capacity:VCPU",
      one: "has too little VCPU",
      many: "have too little VCPU",
      capacity: true,
    });
    expect(check.reject(member({ MEMORY_MB: 2561 }), TIME)?.code).toBe("capacity:MEMORY_MB");
  });

  it("names a class the member has no inventory of", () => {
    const check = capacityFilter.bind({ resources: { VCPU: 1, CUSTOM_FPGA: 1 }, memoryShare: null });
    expect(check.reject(member(), TIME)).toMatchObject({
      code: "lack:CUSTOM_FPGA",
      one: "lacks CUSTOM_FPGA",
    });
  });

  it("names inventory unit constraints", () => {
    const check = capacityFilter.bind({ resources: { DISK_GB: 15 }, memoryShare: null });
    expect(check.reject(member(), TIME)).toMatchObject({
      code: "constraints:DISK_GB",
      one: "can't take 15 DISK_GB (inventory constraints)",
    });
  });

  it("remembers a verdict until the member's consumption changes", () => {
    const state = member();
    const check = capacityFilter.bind({ resources: { VCPU: 16 }, memoryShare: null });
    expect(check.admits(state, TIME)).toBe(true);
    state.addPending("VCPU", 1);
    expect(check.admits(state, TIME)).toBe(false);
    state.addPending("VCPU", -1);
    expect(check.admits(state, TIME)).toBe(true);
  });

  it("shares one demand between requests of the same amounts", () => {
    expect(demandOf({ VCPU: 2, MEMORY_MB: 512 })).toBe(demandOf({ VCPU: 2, MEMORY_MB: 512 }));
    expect(demandOf({ VCPU: 2 })).not.toBe(demandOf({ VCPU: 3 }));
  });

  it("admits exactly when it has no rejection (property)", () => {
    const classes = ["VCPU", "MEMORY_MB", "DISK_GB", "CUSTOM_FPGA"];
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...classes), fc.integer({ min: 1, max: 5000 }), { minKeys: 1 }),
        fc.dictionary(fc.constantFrom(...classes), fc.integer({ min: 0, max: 5000 })),
        (resources, consumed) => {
          const state = member(consumed);
          const check = capacityFilter.bind({ resources, memoryShare: null });
          // Twice: the second answer comes from the remembered verdict.
          expect(check.admits(state, TIME)).toBe(check.reject(state, TIME) === undefined);
          expect(check.admits(state, TIME)).toBe(check.reject(state, TIME) === undefined);
        },
      ),
    );
  });
});
