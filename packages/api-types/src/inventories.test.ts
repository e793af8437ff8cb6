import { describe, expect, it } from "vitest";
import {
  InventoriesPutSchema,
  InventoryPutSchema,
  InventorySchema,
  MemberInventoriesSchema,
} from "./inventories.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("Inventory", () => {
  it("fills Placement's defaults for everything but total", () => {
    expect(parseBody(InventorySchema, { total: 8 })).toEqual({
      ok: true,
      value: { total: 8, reserved: 0, min_unit: 1, max_unit: 2147483647, step_size: 1, allocation_ratio: 1 },
    });
  });

  it("keeps explicit values", () => {
    const value = { total: 64, reserved: 4, min_unit: 1, max_unit: 16, step_size: 2, allocation_ratio: 16 };
    expect(parseBody(InventorySchema, value)).toEqual({ ok: true, value });
  });

  it("allows reserved == total (capacity 0), as Placement does since 1.26", () => {
    expect(parseBody(InventorySchema, { total: 4, reserved: 4 }).ok).toBe(true);
  });

  it("rejects out-of-range fields with Placement's bounds", () => {
    expect(errorOf(parseBody(InventorySchema, { total: 0 }))).toBe(
      'Invalid field "total": must be at least 1',
    );
    expect(errorOf(parseBody(InventorySchema, { total: 2147483648 }))).toBe(
      'Invalid field "total": must be at most 2147483647',
    );
    expect(errorOf(parseBody(InventorySchema, { total: 1, step_size: 0 }))).toBe(
      'Invalid field "step_size": must be at least 1',
    );
    expect(errorOf(parseBody(InventorySchema, { total: 1, allocation_ratio: 0 }))).toBe(
      'Invalid field "allocation_ratio": must be greater than 0',
    );
    expect(errorOf(parseBody(InventorySchema, { reserved: 0 }))).toBe('Missing field "total"');
  });

  it("rejects reserved > total and min_unit > max_unit", () => {
    expect(errorOf(parseBody(InventorySchema, { total: 4, reserved: 5 }))).toBe(
      'Invalid field "reserved": must not be greater than total',
    );
    expect(errorOf(parseBody(InventorySchema, { total: 4, min_unit: 4, max_unit: 2 }))).toBe(
      'Invalid field "min_unit": must not be greater than max_unit',
    );
  });
});

describe("inventory writes and reads", () => {
  it("requires the member generation on PUT", () => {
    expect(parseBody(InventoryPutSchema, { generation: 3, total: 10 }).ok).toBe(true);
    expect(errorOf(parseBody(InventoryPutSchema, { total: 10 }))).toBe('Missing field "generation"');
  });

  it("replaces a whole set keyed by class", () => {
    const body = { generation: 0, inventories: { VCPU: { total: 32 }, CUSTOM_BAREMETAL_GOLD: { total: 1 } } };
    expect(parseBody(InventoriesPutSchema, body).ok).toBe(true);
    expect(
      errorOf(
        parseBody(InventoriesPutSchema, { generation: 0, inventories: { VCPU: { total: 1, used: 0 } } }),
      ),
    ).toBe('Unknown field "inventories.VCPU.used"');
    expect(
      errorOf(
        parseBody(InventoriesPutSchema, { generation: 0, inventories: { "custom-gold": { total: 1 } } }),
      ),
    ).toBe(
      'Invalid key "custom-gold" in field "inventories": must be 1-255 characters of upper-case letters, digits and underscores (a standard class or CUSTOM_*)',
    );
  });

  it("lists derived and explicit inventories with the usage of both ledgers", () => {
    const full = { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 4 };
    const usage = { used: 3, forthcoming: 1 };
    const value = { generation: 7, inventories: { VCPU: { ...full, derived: true, ...usage } } };
    expect(parseBody(MemberInventoriesSchema, value)).toEqual({ ok: true, value });
    expect(
      errorOf(
        parseBody(MemberInventoriesSchema, { generation: 7, inventories: { VCPU: { ...full, ...usage } } }),
      ),
    ).toBe('Missing field "inventories.VCPU.derived"');
    expect(
      errorOf(
        parseBody(MemberInventoriesSchema, {
          generation: 7,
          inventories: { VCPU: { ...full, derived: false, used: 3 } },
        }),
      ),
    ).toBe('Missing field "inventories.VCPU.forthcoming"');
  });
});
