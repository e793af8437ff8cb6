import { describe, expect, it } from "vitest";
import { normalizeInventory } from "./inventory.js";
import { DEFAULT_ALLOCATION_RATIOS, deriveMemberInventories } from "./member-inventories.js";
import { GiB, MiB } from "./sizes.js";

const reported = { cpuThreads: 32, memoryBytes: 128 * GiB + 123 };

describe("deriveMemberInventories", () => {
  it("derives VCPU, MEMORY_MB and DISK_GB with the default ratios", () => {
    expect(deriveMemberInventories({ ...reported, rootPoolBytes: 2000 * GiB + 5 })).toEqual({
      ok: true,
      value: {
        VCPU: {
          total: 32,
          reserved: 0,
          minUnit: 1,
          maxUnit: 2147483647,
          stepSize: 1,
          allocationRatio: 16,
        },
        MEMORY_MB: {
          total: 131072,
          reserved: 0,
          minUnit: 1,
          maxUnit: 2147483647,
          stepSize: 1,
          allocationRatio: 1.5,
        },
        DISK_GB: {
          total: 2000,
          reserved: 0,
          minUnit: 1,
          maxUnit: 2147483647,
          stepSize: 1,
          allocationRatio: 1,
        },
      },
    });
    expect(DEFAULT_ALLOCATION_RATIOS).toEqual({ VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1 });
  });

  it("takes the cluster's ratios and reservations", () => {
    const result = deriveMemberInventories(
      reported,
      {},
      {
        allocation_ratios: { VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1 },
        reserved: { MEMORY_MB: 512, VCPU: 2 },
      },
    );
    expect(result.ok && result.value).toEqual({
      VCPU: expect.objectContaining({ total: 32, reserved: 2, allocationRatio: 16 }),
      MEMORY_MB: expect.objectContaining({ total: 131072, reserved: 512, allocationRatio: 1.5 }),
    });
  });

  it("leaves out DISK_GB when the root pool size is unknown, and classes that round to 0", () => {
    const tiny = deriveMemberInventories({ cpuThreads: 0, memoryBytes: MiB - 1, rootPoolBytes: GiB - 1 });
    expect(tiny).toEqual({ ok: true, value: {} });
  });

  it("a class the reports no longer size keeps its last derived total, with the current ratio", () => {
    const result = deriveMemberInventories(
      { cpuThreads: 0, memoryBytes: 8 * GiB },
      {},
      { allocation_ratios: { VCPU: 16, MEMORY_MB: 1, DISK_GB: 1 } },
      { VCPU: { total: 32 }, MEMORY_MB: { total: 131072 }, DISK_GB: { total: 100 } },
    );
    expect(result.ok && result.value).toEqual({
      VCPU: expect.objectContaining({ total: 32, allocationRatio: 16 }),
      MEMORY_MB: expect.objectContaining({ total: 8192 }),
      DISK_GB: expect.objectContaining({ total: 100 }),
    });
  });

  it("explicit inventories always win and are the only source of custom classes", () => {
    const valid = (input: Parameters<typeof normalizeInventory>[1]) => {
      const result = normalizeInventory("X", input);
      if (!result.ok) throw new Error(result.error.message);
      return result.value;
    };
    const explicitVcpu = valid({ total: 8, allocation_ratio: 2 });
    const gold = valid({ total: 1, max_unit: 1 });
    const result = deriveMemberInventories(
      { ...reported, rootPoolBytes: 100 * GiB },
      {
        VCPU: explicitVcpu,
        CUSTOM_BAREMETAL_GOLD: gold,
      },
    );
    expect(result.ok && result.value).toEqual({
      VCPU: { total: 8, reserved: 0, minUnit: 1, maxUnit: 2147483647, stepSize: 1, allocationRatio: 2 },
      MEMORY_MB: expect.objectContaining({ total: 131072 }),
      DISK_GB: expect.objectContaining({ total: 100 }),
      CUSTOM_BAREMETAL_GOLD: {
        total: 1,
        reserved: 0,
        minUnit: 1,
        maxUnit: 1,
        stepSize: 1,
        allocationRatio: 1,
      },
    });
    // Explicit inventories are already valid values: they are taken as given.
    expect(result.ok && result.value.VCPU).toBe(explicitVcpu);
  });

  it("reports a bad cluster default", () => {
    const result = deriveMemberInventories(
      reported,
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
