import { describe, expect, it } from "vitest";
import { DEFAULT_ALLOCATION_RATIOS, deriveMemberInventories } from "./member-inventories.js";
import { GiB, MiB } from "./sizes.js";

const reported = { cpu: { total: 32 }, memory: { total: 128 * GiB + 123 } };

describe("deriveMemberInventories", () => {
  it("derives VCPU, MEMORY_MB and DISK_GB with the default ratios", () => {
    expect(deriveMemberInventories(reported, 2000 * GiB + 5)).toEqual({
      ok: true,
      value: {
        VCPU: {
          total: 32,
          reserved: 0,
          min_unit: 1,
          max_unit: 2147483647,
          step_size: 1,
          allocation_ratio: 4,
        },
        MEMORY_MB: {
          total: 131072,
          reserved: 0,
          min_unit: 1,
          max_unit: 2147483647,
          step_size: 1,
          allocation_ratio: 1,
        },
        DISK_GB: {
          total: 2000,
          reserved: 0,
          min_unit: 1,
          max_unit: 2147483647,
          step_size: 1,
          allocation_ratio: 1,
        },
      },
    });
    expect(DEFAULT_ALLOCATION_RATIOS).toEqual({ VCPU: 4, MEMORY_MB: 1, DISK_GB: 1 });
  });

  it("takes the cluster's ratios and reservations", () => {
    const result = deriveMemberInventories(
      reported,
      undefined,
      {},
      {
        allocation_ratios: { VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1 },
        reserved: { MEMORY_MB: 512, VCPU: 2 },
      },
    );
    expect(result.ok && result.value).toEqual({
      VCPU: expect.objectContaining({ total: 32, reserved: 2, allocation_ratio: 16 }),
      MEMORY_MB: expect.objectContaining({ total: 131072, reserved: 512, allocation_ratio: 1.5 }),
    });
  });

  it("leaves out DISK_GB when the root pool size is unknown, and classes that round to 0", () => {
    const tiny = deriveMemberInventories({ cpu: { total: 0 }, memory: { total: MiB - 1 } }, GiB - 1);
    expect(tiny).toEqual({ ok: true, value: {} });
  });

  it("explicit inventories always win and are the only source of custom classes", () => {
    const result = deriveMemberInventories(reported, 100 * GiB, {
      VCPU: { total: 8, allocation_ratio: 2 },
      CUSTOM_BAREMETAL_GOLD: { total: 1, max_unit: 1 },
    });
    expect(result.ok && result.value).toEqual({
      VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 2147483647, step_size: 1, allocation_ratio: 2 },
      MEMORY_MB: expect.objectContaining({ total: 131072 }),
      DISK_GB: expect.objectContaining({ total: 100 }),
      CUSTOM_BAREMETAL_GOLD: {
        total: 1,
        reserved: 0,
        min_unit: 1,
        max_unit: 1,
        step_size: 1,
        allocation_ratio: 1,
      },
    });
  });

  it("reports a bad explicit inventory with its class", () => {
    const result = deriveMemberInventories(reported, undefined, { CUSTOM_X: { total: 1, reserved: 5 } });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "invalid-member-inventory",
        resource_class: "CUSTOM_X",
        cause: expect.objectContaining({ kind: "reserved-exceeds-total" }),
        message:
          "Invalid CUSTOM_X inventory: Invalid inventory for 'CUSTOM_X'. The reserved value is greater than total.",
      },
    });
  });

  it("reports a bad cluster default", () => {
    const result = deriveMemberInventories(
      reported,
      undefined,
      {},
      {
        allocation_ratios: { VCPU: 4, MEMORY_MB: 1, DISK_GB: 1 },
        reserved: { VCPU: 64 },
      },
    );
    expect(!result.ok && result.error.resource_class).toBe("VCPU");
    expect(!result.ok && result.error.cause.kind).toBe("reserved-exceeds-total");
  });
});
