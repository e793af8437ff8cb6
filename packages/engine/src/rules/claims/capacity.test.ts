import { describe, expect, it } from "vitest";
import { inventory, newInstance, provider, refusal, row, stored } from "../../testing/claim-rows.fixture.js";
import { checkCapacity, consumedOf } from "./capacity.js";
import { consumptionChanges } from "./consumption.js";

describe("checkCapacity", () => {
  it("counts both ledgers: reservations hold capacity like instances", () => {
    const providers = new Map([
      ["a", provider({ MEMORY_MB: inventory(1024) }, { MEMORY_MB: 256 }, { MEMORY_MB: 512 })],
    ]);
    expect(consumedOf(providers.get("a")!, "MEMORY_MB")).toBe(768);
    const fits = newInstance("i", "a", { MEMORY_MB: 256 });
    expect(() => checkCapacity(consumptionChanges([], [fits]), providers)).not.toThrow();
    const over = newInstance("i", "a", { MEMORY_MB: 257 });
    expect(refusal(() => checkCapacity(consumptionChanges([], [over]), providers)).details).toMatchObject({
      reason: "capacity",
      resourceClass: "MEMORY_MB",
      requested: 257,
      used: 768,
      capacity: 1024,
    });
  });

  it("applies Placement's formula: (total - reserved) * allocation_ratio", () => {
    const providers = new Map([["a", provider({ VCPU: inventory(4, { reserved: 1, allocationRatio: 2 }) })]]);
    expect(() =>
      checkCapacity(consumptionChanges([], [newInstance("i", "a", { VCPU: 6 })]), providers),
    ).not.toThrow();
    expect(
      refusal(() => checkCapacity(consumptionChanges([], [newInstance("i", "a", { VCPU: 7 })]), providers))
        .details,
    ).toMatchObject({
      capacity: 6,
    });
  });

  it("checks growth only: an inventory shrunk below usage lets commits, moves within it and shrinks through", () => {
    const shrunk = new Map([["a", provider({ VCPU: inventory(1) }, {}, { VCPU: 3 })]]);
    const reservation = stored(newInstance("r", "a", { VCPU: 3 }, { forthcoming: true }));
    const commit = {
      ...reservation,
      forthcoming: false,
      allocations: newInstance("r", "a", { VCPU: 3 }).allocations,
    };
    expect(() => checkCapacity(consumptionChanges([reservation], [commit]), shrunk)).not.toThrow();
    const grow = { ...commit, allocations: newInstance("r", "a", { VCPU: 4 }).allocations };
    expect(
      refusal(() => checkCapacity(consumptionChanges([reservation], [grow]), shrunk)).details,
    ).toMatchObject({
      reason: "capacity",
      requested: 1,
    });
  });

  it("checks every provider an instance's rows name", () => {
    const providers = new Map([
      ["a", provider({ VCPU: inventory(8) })],
      ["b", provider({ DISK_GB: inventory(10) }, { DISK_GB: 8 })],
    ]);
    const record = newInstance(
      "x",
      "a",
      {},
      {
        allocations: [row("a", "VCPU", 2), row("b", "DISK_GB", 3)],
      },
    );
    expect(refusal(() => checkCapacity(consumptionChanges([], [record]), providers)).details).toMatchObject({
      member: "b",
      resourceClass: "DISK_GB",
      used: 8,
    });
  });

  it("refuses growth of a class with no inventory", () => {
    const providers = new Map([["a", provider({ VCPU: inventory(8) })]]);
    expect(
      refusal(() => checkCapacity(consumptionChanges([], [newInstance("x", "a", { DISK_GB: 1 })]), providers))
        .details,
    ).toEqual({
      reason: "no_inventory",
      member: "a",
      resourceClass: "DISK_GB",
    });
  });
});
