import { describe, expect, it } from "vitest";
import { inventory, newInstance, provider, refusal, row, stored } from "../../testing/claim-rows.fixture.js";
import { checkAllocations } from "./allocations.js";

describe("checkAllocations", () => {
  const providers = new Map([
    ["a", provider({ VCPU: inventory(64, { minUnit: 2, maxUnit: 16, stepSize: 2 }) })],
    ["a-gpu0", provider({ CUSTOM_GPU: inventory(1) })],
  ]);

  it("passes rows that meet their inventory's unit constraints, on any provider", () => {
    const record = newInstance(
      "x",
      "a",
      {},
      { allocations: [row("a", "VCPU", 4), row("a-gpu0", "CUSTOM_GPU", 1)] },
    );
    expect(() => checkAllocations([record], new Map(), providers)).not.toThrow();
  });

  it("refuses a location or a provider that is gone, but not for a zero row", () => {
    expect(refusal(() => checkAllocations([newInstance("x", "gone")], new Map(), providers)).details).toEqual(
      {
        reason: "member_missing",
        member: "gone",
      },
    );
    const elsewhere = newInstance("x", "a", {}, { allocations: [row("b-gpu", "CUSTOM_GPU", 1)] });
    expect(refusal(() => checkAllocations([elsewhere], new Map(), providers)).details).toEqual({
      reason: "member_missing",
      member: "b-gpu",
    });
    const zero = newInstance("x", "a", {}, { allocations: [row("b-gpu", "CUSTOM_GPU", 0)] });
    expect(() => checkAllocations([zero], new Map(), providers)).not.toThrow();
  });

  it("refuses a class the provider has no inventory of", () => {
    const record = newInstance("x", "a", {}, { allocations: [row("a-gpu0", "VCPU", 2)] });
    expect(refusal(() => checkAllocations([record], new Map(), providers)).details).toEqual({
      reason: "no_inventory",
      member: "a-gpu0",
      resourceClass: "VCPU",
    });
  });

  it("refuses amounts below min_unit, above max_unit or off the step", () => {
    for (const amount of [1, 3, 18]) {
      const record = newInstance("x", "a", { VCPU: amount });
      expect(refusal(() => checkAllocations([record], new Map(), providers)).details).toMatchObject({
        reason: "constraints",
        amount,
        minUnit: 2,
        maxUnit: 16,
        stepSize: 2,
      });
    }
  });

  it("a replaced instance's rows that did not grow are not re-checked", () => {
    // Held 3 VCPU before the inventory gained a step of 2: keeping or shrinking it passes, growing it is checked.
    const old = stored(newInstance("x", "a", { VCPU: 3 }));
    const replaced = new Map([[old.id, old]]);
    expect(() => checkAllocations([{ ...old }], replaced, providers)).not.toThrow();
    expect(() =>
      checkAllocations([{ ...old, allocations: [row("a", "VCPU", 1)] }], replaced, providers),
    ).not.toThrow();
    expect(
      refusal(() => checkAllocations([{ ...old, allocations: [row("a", "VCPU", 5)] }], replaced, providers))
        .details,
    ).toMatchObject({ reason: "constraints", amount: 5 });
  });
});
