import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFit, FIT_OK, noInventory, unitViolation } from "./fit.js";
import { type Inventory, inventoryCapacity, normalizeInventory } from "./inventory.js";

function inventory(input: Parameters<typeof normalizeInventory>[1]): Inventory {
  const result = normalizeInventory("X", input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

// Placement's AllocationFixture (gabbit resource-provider-resources-query.yaml):
// DISK_GB 2048 with step 10, min 10, max 1000 and 1020 used; VCPU 10 with max 10 and 7 used.
const disk = inventory({ total: 2048, step_size: 10, min_unit: 10, max_unit: 1000 });
const vcpu = inventory({ total: 10, max_unit: 10 });

describe("checkFit: Placement's AllocationFixture", () => {
  it("DISK_GB:500 fits", () => {
    expect(checkFit("DISK_GB", disk, 1020, 500)).toBe(FIT_OK);
  });

  it("VCPU:2 fits next to it, VCPU:3 uses the last of it", () => {
    expect(checkFit("VCPU", vcpu, 7, 2)).toBe(FIT_OK);
    expect(checkFit("VCPU", vcpu, 7, 3)).toBe(FIT_OK);
  });

  it("DISK_GB:1 violates min_unit", () => {
    expect(checkFit("DISK_GB", disk, 1020, 1)).toEqual({
      ok: false,
      kind: "below-min-unit",
      resource_class: "DISK_GB",
      amount: 1,
      min_unit: 10,
      message:
        "Unable to allocate 1 DISK_GB. The requested amount would violate inventory constraints: 1 is below min_unit 10.",
    });
  });

  it("DISK_GB:1010 violates max_unit", () => {
    expect(checkFit("DISK_GB", disk, 1020, 1010)).toEqual({
      ok: false,
      kind: "above-max-unit",
      resource_class: "DISK_GB",
      amount: 1010,
      max_unit: 1000,
      message:
        "Unable to allocate 1010 DISK_GB. The requested amount would violate inventory constraints: 1010 is above max_unit 1000.",
    });
  });

  it("DISK_GB:102400 is refused (max_unit is checked before capacity)", () => {
    const verdict = checkFit("DISK_GB", disk, 1020, 102400);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.kind).toBe("above-max-unit");
  });

  it("DISK_GB:11 violates step_size", () => {
    expect(checkFit("DISK_GB", disk, 1020, 11)).toEqual({
      ok: false,
      kind: "not-step-multiple",
      resource_class: "DISK_GB",
      amount: 11,
      step_size: 10,
      message:
        "Unable to allocate 11 DISK_GB. The requested amount would violate inventory constraints: 11 is not a multiple of step_size 10.",
    });
  });

  it("VCPU:4 exceeds the capacity (10 - 7 = 3 left)", () => {
    expect(checkFit("VCPU", vcpu, 7, 4)).toEqual({
      ok: false,
      kind: "exceeds-capacity",
      resource_class: "VCPU",
      amount: 4,
      used: 7,
      capacity: 10,
      message:
        "Unable to allocate 4 VCPU. The requested amount would exceed the capacity: 7 used + 4 requested > capacity 10.",
    });
  });

  it("a class without inventory is its own failure", () => {
    expect(noInventory("MEMORY_MB", 10240)).toEqual({
      ok: false,
      kind: "no-inventory",
      resource_class: "MEMORY_MB",
      amount: 10240,
      message:
        "Unable to allocate 10240 MEMORY_MB. Inventory for 'MEMORY_MB' on this member invalid: no such inventory.",
    });
  });
});

describe("checkFit: capacity with ratios and shrinking", () => {
  it("uses the float capacity, not the truncated one", () => {
    const half = inventory({ total: 3, allocation_ratio: 1.5 });
    expect(checkFit("VCPU", half, 0, 4)).toBe(FIT_OK);
    expect(checkFit("VCPU", half, 4, 1).ok).toBe(false);
  });

  it("overcommits with the ratio: 24 threads at 16.0 hold 384 VCPU", () => {
    const cn = inventory({ total: 24, allocation_ratio: 16 });
    expect(checkFit("VCPU", cn, 383, 1)).toBe(FIT_OK);
    expect(checkFit("VCPU", cn, 384, 1).ok).toBe(false);
  });

  it("reserved is held back", () => {
    const shared = inventory({ total: 2000, reserved: 100 });
    expect(checkFit("DISK_GB", shared, 1800, 100)).toBe(FIT_OK);
    expect(checkFit("DISK_GB", shared, 1800, 101).ok).toBe(false);
  });

  it("an inventory shrunk below its usage accepts nothing more", () => {
    const shrunk = inventory({ total: 4 });
    expect(checkFit("VCPU", shrunk, 6, 1)).toMatchObject({ ok: false, kind: "exceeds-capacity", used: 6 });
  });

  it("zero is below every min_unit", () => {
    expect(checkFit("VCPU", vcpu, 0, 0)).toMatchObject({ ok: false, kind: "below-min-unit" });
  });
});

describe("unitViolation", () => {
  it("names the first unit constraint an amount breaks, in Placement's order", () => {
    expect(unitViolation(disk, 1)).toBe("below-min-unit");
    expect(unitViolation(disk, 1010)).toBe("above-max-unit");
    expect(unitViolation(disk, 11)).toBe("not-step-multiple");
    // Below min_unit and off the step: min_unit is reported first.
    expect(unitViolation(disk, 5)).toBe("below-min-unit");
    expect(unitViolation(disk, 10)).toBeUndefined();
    expect(unitViolation(disk, 1000)).toBeUndefined();
  });

  it("ignores capacity: an amount beyond it but within the units passes", () => {
    expect(unitViolation(vcpu, 10)).toBeUndefined();
    expect(checkFit("VCPU", vcpu, 5, 10).ok).toBe(false);
  });
});

describe("checkFit: properties", () => {
  const inventories = fc
    .record({
      total: fc.integer({ min: 1, max: 100_000 }),
      reservedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      min_unit: fc.integer({ min: 1, max: 20 }),
      max_unit: fc.integer({ min: 1, max: 200_000 }),
      step_size: fc.integer({ min: 1, max: 16 }),
      allocation_ratio: fc.oneof(
        fc.constantFrom(0, 0.5, 1, 1.5, 4, 16),
        fc.double({ min: 0, max: 64, noNaN: true }),
      ),
    })
    .map(({ reservedShare, ...rest }) =>
      inventory({ ...rest, reserved: Math.floor(rest.total * reservedShare) }),
    );

  it("never accepts an amount that pushes usage past capacity or breaks a constraint", () => {
    fc.assert(
      fc.property(inventories, fc.nat({ max: 300_000 }), fc.nat({ max: 300_000 }), (inv, used, amount) => {
        const verdict = checkFit("X", inv, used, amount);
        if (verdict.ok) {
          expect(used + amount).toBeLessThanOrEqual(inventoryCapacity(inv));
          expect(amount).toBeGreaterThanOrEqual(inv.minUnit);
          expect(amount).toBeLessThanOrEqual(inv.maxUnit);
          expect(amount % inv.stepSize).toBe(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts every amount that satisfies all four conditions", () => {
    fc.assert(
      fc.property(inventories, fc.nat({ max: 300_000 }), fc.nat({ max: 300_000 }), (inv, used, amount) => {
        const allowed =
          used + amount <= inventoryCapacity(inv) &&
          amount >= inv.minUnit &&
          amount <= inv.maxUnit &&
          amount % inv.stepSize === 0;
        expect(checkFit("X", inv, used, amount).ok).toBe(allowed);
      }),
      { numRuns: 2000 },
    );
  });

  it("filling an inventory one fitting amount at a time never overcommits it", () => {
    fc.assert(
      fc.property(
        inventories,
        fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 60 }),
        (inv, asks) => {
          let used = 0;
          for (const amount of asks) {
            if (checkFit("X", inv, used, amount).ok) used += amount;
          }
          expect(used).toBeLessThanOrEqual(Math.max(0, inventoryCapacity(inv)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
