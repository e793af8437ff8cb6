import { describe, expect, it } from "vitest";
import {
  displayedCapacity,
  INVENTORY_DEFAULTS,
  type InventoryInput,
  inventoryCapacity,
  MAX_ALLOCATION_RATIO,
  MAX_INT,
  normalizeInventory,
} from "./inventory.js";

function inventoryOf(input: InventoryInput, resourceClass = "VCPU") {
  const result = normalizeInventory(resourceClass, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function errorOf(input: unknown, resourceClass = "VCPU") {
  const result = normalizeInventory(resourceClass, input as InventoryInput);
  if (result.ok) throw new Error("expected a failure");
  return result.error;
}

describe("normalizeInventory: defaults", () => {
  it("fills Placement's API defaults", () => {
    expect(inventoryOf({ total: 8 })).toEqual({
      total: 8,
      reserved: 0,
      minUnit: 1,
      maxUnit: 2147483647,
      stepSize: 1,
      allocationRatio: 1.0,
    });
    expect(INVENTORY_DEFAULTS.max_unit).toBe(MAX_INT);
    expect(MAX_INT).toBe(0x7fffffff);
  });

  it("keeps given values and ignores explicit undefined", () => {
    expect(
      inventoryOf({
        total: 2048,
        reserved: 48,
        min_unit: 10,
        max_unit: 1000,
        step_size: 10,
        allocation_ratio: 1.5,
      }),
    ).toEqual({
      total: 2048,
      reserved: 48,
      minUnit: 10,
      maxUnit: 1000,
      stepSize: 10,
      allocationRatio: 1.5,
    });
    expect(inventoryOf({ total: 4, reserved: undefined }).reserved).toBe(0);
  });

  it("does not check min_unit <= max_unit or max_unit <= total, like Placement", () => {
    expect(inventoryOf({ total: 4, min_unit: 8, max_unit: 2 })).toMatchObject({ minUnit: 8, maxUnit: 2 });
    expect(inventoryOf({ total: 4, max_unit: 100 }).maxUnit).toBe(100);
  });
});

describe("normalizeInventory: every field's bounds (Placement's schema texts)", () => {
  it("requires total", () => {
    expect(errorOf({ reserved: 1 })).toEqual({
      kind: "missing-total",
      message: "JSON does not validate: 'total' is a required property",
    });
  });

  it.each(["total", "reserved", "min_unit", "max_unit", "step_size"] as const)(
    "%s = 2147483648 fails 'maximum'",
    (field) => {
      const error = errorOf({ total: 10, [field]: 2147483648 });
      expect(error.kind).toBe("invalid-inventory-field");
      expect(error.message).toContain("2147483648 is greater than the maximum of 2147483647");
      expect(error.message).toContain("Failed validating 'maximum'");
      expect(error.kind === "invalid-inventory-field" && error.field).toBe(field);
    },
  );

  it.each([
    ["total", 0, 1],
    ["reserved", -1, 0],
    ["min_unit", 0, 1],
    ["max_unit", 0, 1],
    ["step_size", 0, 1],
  ] as const)("%s = %i fails 'minimum'", (field, value, minimum) => {
    const error = errorOf({ total: 10, [field]: value });
    expect(error.message).toBe(
      `JSON does not validate: ${value} is less than the minimum of ${minimum}\n\n` +
        `Failed validating 'minimum' in schema['properties']['${field}']`,
    );
  });

  it.each([
    ["total", "8", "'8'"],
    ["reserved", 1.5, "1.5"],
    ["min_unit", null, "None"],
    ["max_unit", true, "True"],
    ["step_size", false, "False"],
    ["total", [1], "[1]"],
  ] as const)("%s = %j is not an integer", (field, value, repr) => {
    const error = errorOf({ total: 10, [field]: value });
    expect(error.message).toContain(`${repr} is not of type 'integer'`);
    expect(error.message).toContain("Failed validating 'type'");
  });

  it("allocation_ratio must be a number no larger than a float32", () => {
    expect(errorOf({ total: 10, allocation_ratio: "2" }).message).toContain("'2' is not of type 'number'");
    expect(errorOf({ total: 10, allocation_ratio: Number.NaN }).message).toContain("is not of type 'number'");
    const tooBig = errorOf({ total: 10, allocation_ratio: 3.40282e39 });
    expect(tooBig.message).toContain("Failed validating 'maximum'");
    expect(inventoryOf({ total: 10, allocation_ratio: MAX_ALLOCATION_RATIO }).allocationRatio).toBe(
      3.40282e38,
    );
  });

  it("reserved may equal total (microversion >= 1.26) but never exceed it", () => {
    expect(inventoryCapacity(inventoryOf({ total: 253, reserved: 253 }, "IPV4_ADDRESS"))).toBe(0);
    expect(errorOf({ total: 253, reserved: 512 }, "IPV4_ADDRESS")).toEqual({
      kind: "reserved-exceeds-total",
      resource_class: "IPV4_ADDRESS",
      total: 253,
      reserved: 512,
      message: "Invalid inventory for 'IPV4_ADDRESS'. The reserved value is greater than total.",
    });
  });

  it("a negative ratio makes capacity negative and is refused the same way", () => {
    expect(errorOf({ total: 10, allocation_ratio: -1 }).kind).toBe("reserved-exceeds-total");
    expect(inventoryCapacity(inventoryOf({ total: 10, allocation_ratio: 0 }))).toBe(0);
  });
});

describe("capacity", () => {
  it.each([
    [{ total: 24, allocation_ratio: 16 }, 384],
    [{ total: 131072, allocation_ratio: 1.5 }, 196608],
    [{ total: 2000, reserved: 100 }, 1900],
    [{ total: 8 }, 8],
    [{ total: 10, reserved: 3, allocation_ratio: 2 }, 14],
  ])("(total - reserved) * allocation_ratio of %j is %i", (input, capacity) => {
    expect(inventoryCapacity(inventoryOf(input))).toBe(capacity);
  });

  it("is a float for admission and truncated for display", () => {
    const inventory = inventoryOf({ total: 3, allocation_ratio: 1.5 });
    expect(inventoryCapacity(inventory)).toBe(4.5);
    expect(displayedCapacity(inventory)).toBe(4);
  });
});
