import type { BerthApi } from "@berth/client/node";
import { inventoryCapacity, STANDARD_RESOURCE_CLASSES } from "@berth/resources";

/** One class on one member: its inventory plus what is allocated (used) and reserved (forthcoming). */
export interface ClassUsage {
  total: number;
  reserved: number;
  min_unit: number;
  max_unit: number;
  step_size: number;
  allocation_ratio: number;
  derived: boolean;
  capacity: number;
  used: number;
  forthcoming: number;
}

interface UsageFields {
  used?: number;
  forthcoming?: number;
}

/**
 * A member's inventories with usage. The list answer carries `used` when the
 * server provides it; otherwise each class is read on its own (the per-class
 * GET always reports usage).
 */
export async function memberUsage(api: BerthApi, member: string): Promise<Record<string, ClassUsage>> {
  const { inventories } = await api.getInventories(member);
  const entries = await Promise.all(
    Object.entries(inventories).map(async ([resourceClass, inventory]): Promise<[string, ClassUsage]> => {
      let usage = inventory as typeof inventory & UsageFields;
      if (usage.used === undefined) {
        usage = { ...inventory, ...((await api.getInventory(member, resourceClass)) as UsageFields) };
      }
      return [
        resourceClass,
        {
          total: inventory.total,
          reserved: inventory.reserved,
          min_unit: inventory.min_unit,
          max_unit: inventory.max_unit,
          step_size: inventory.step_size,
          allocation_ratio: inventory.allocation_ratio,
          derived: inventory.derived,
          // The wire's Placement names, translated to the formula's fields.
          capacity: inventoryCapacity({
            total: inventory.total,
            reserved: inventory.reserved,
            allocationRatio: inventory.allocation_ratio,
          }),
          used: usage.used ?? 0,
          forthcoming: usage.forthcoming ?? 0,
        },
      ];
    }),
  );
  return Object.fromEntries(entries);
}

/** Standard classes in Placement's order first (VCPU, MEMORY_MB, DISK_GB, ...), then custom ones by name. */
export function orderClasses(classes: Iterable<string>): string[] {
  const standard = STANDARD_RESOURCE_CLASSES as readonly string[];
  return [...new Set(classes)].sort((a, b) => {
    const ia = standard.indexOf(a);
    const ib = standard.indexOf(b);
    if (ia >= 0 && ib >= 0) return ia - ib;
    if (ia >= 0) return -1;
    if (ib >= 0) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
