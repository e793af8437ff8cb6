import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIT_OK } from "./fit.js";
import { type Inventory, inventoryCapacity } from "./inventory.js";
import {
  addAllocation,
  combinedUsage,
  commitForthcoming,
  emptyUsage,
  fitsWithBothLedgers,
  subtractAllocation,
} from "./ledger.js";
import { inventories } from "./testing/inventories.fixture.js";

const member = inventories({ VCPU: { total: 8 }, MEMORY_MB: { total: 16384 } });

describe("ledger operations", () => {
  it("add and subtract per class, deleting classes that reach zero", () => {
    const usage = emptyUsage();
    addAllocation(usage, "used", { VCPU: 2, MEMORY_MB: 2048 });
    addAllocation(usage, "used", { VCPU: 1 });
    addAllocation(usage, "forthcoming", { VCPU: 4 });
    expect(usage).toEqual({ used: { VCPU: 3, MEMORY_MB: 2048 }, forthcoming: { VCPU: 4 } });
    expect(combinedUsage(usage, "VCPU")).toBe(7);
    expect(combinedUsage(usage, "DISK_GB")).toBe(0);
    expect(subtractAllocation(usage, "used", { VCPU: 1, MEMORY_MB: 2048 })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(usage.used).toEqual({ VCPU: 2 });
  });

  it("refuses to go below zero and changes nothing then", () => {
    const usage = emptyUsage();
    addAllocation(usage, "used", { VCPU: 2, MEMORY_MB: 100 });
    expect(subtractAllocation(usage, "used", { MEMORY_MB: 50, VCPU: 3 })).toEqual({
      ok: false,
      error: {
        kind: "usage-below-zero",
        ledger: "used",
        resource_class: "VCPU",
        usage: 2,
        amount: 3,
        message: "Cannot release 3 VCPU from the used ledger: only 2 is recorded",
      },
    });
    expect(usage.used).toEqual({ VCPU: 2, MEMORY_MB: 100 });
  });

  it("committing a reservation moves it from forthcoming to used", () => {
    const usage = emptyUsage();
    addAllocation(usage, "forthcoming", { VCPU: 4, MEMORY_MB: 4096 });
    expect(commitForthcoming(usage, { VCPU: 4, MEMORY_MB: 4096 }).ok).toBe(true);
    expect(usage).toEqual({ used: { VCPU: 4, MEMORY_MB: 4096 }, forthcoming: {} });
    const failed = commitForthcoming(usage, { VCPU: 1 });
    expect(!failed.ok && failed.error.ledger).toBe("forthcoming");
    expect(usage.used).toEqual({ VCPU: 4, MEMORY_MB: 4096 });
  });
});

describe("fitsWithBothLedgers", () => {
  it("counts real and forthcoming usage together", () => {
    const usage = emptyUsage();
    addAllocation(usage, "used", { VCPU: 4 });
    addAllocation(usage, "forthcoming", { VCPU: 3 });
    expect(fitsWithBothLedgers(member, usage, { VCPU: 1, MEMORY_MB: 1024 })).toBe(FIT_OK);
    expect(fitsWithBothLedgers(member, usage, { VCPU: 2 })).toMatchObject({
      ok: false,
      kind: "exceeds-capacity",
      resource_class: "VCPU",
      used: 7,
      capacity: 8,
    });
  });

  it("skips zero amounts and reports a missing inventory", () => {
    expect(fitsWithBothLedgers(member, emptyUsage(), { VCPU: 1, DISK_GB: 0 })).toBe(FIT_OK);
    expect(fitsWithBothLedgers(member, emptyUsage(), { DISK_GB: 1 })).toMatchObject({
      ok: false,
      kind: "no-inventory",
      resource_class: "DISK_GB",
    });
  });

  it("reports the first class that does not fit", () => {
    expect(fitsWithBothLedgers(member, emptyUsage(), { MEMORY_MB: 99999, VCPU: 99 })).toMatchObject({
      resource_class: "MEMORY_MB",
    });
  });

  it("whatever mix of real placements and reservations is accepted, no class ever exceeds its capacity, and every commit succeeds", () => {
    const step = fc.record({
      forthcoming: fc.boolean(),
      request: fc.record({
        VCPU: fc.integer({ min: 0, max: 4 }),
        MEMORY_MB: fc.integer({ min: 0, max: 6000 }),
      }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const usage = emptyUsage();
        const reservations: Record<string, number>[] = [];
        for (const { forthcoming, request } of steps) {
          if (!fitsWithBothLedgers(member, usage, request).ok) continue;
          addAllocation(usage, forthcoming ? "forthcoming" : "used", request);
          if (forthcoming) reservations.push(request);
          for (const resourceClass of ["VCPU", "MEMORY_MB"]) {
            expect(combinedUsage(usage, resourceClass)).toBeLessThanOrEqual(
              inventoryCapacity(member[resourceClass] as Inventory),
            );
          }
        }
        for (const reservation of reservations) {
          expect(commitForthcoming(usage, reservation).ok).toBe(true);
        }
        expect(usage.forthcoming).toEqual({});
      }),
      { numRuns: 300 },
    );
  });

  it("adding then subtracting an allocation restores the ledger", () => {
    const amounts = fc.dictionary(
      fc.constantFrom("VCPU", "MEMORY_MB", "DISK_GB", "CUSTOM_X"),
      fc.integer({ min: 1, max: 1000 }),
    );
    fc.assert(
      fc.property(amounts, amounts, (before, allocation) => {
        const usage = emptyUsage();
        addAllocation(usage, "used", before);
        const snapshot = { ...usage.used };
        addAllocation(usage, "used", allocation);
        expect(subtractAllocation(usage, "used", allocation).ok).toBe(true);
        expect(usage.used).toEqual(snapshot);
      }),
      { numRuns: 300 },
    );
  });
});
