import type { InventoryRecord, NewInstance, NewMember } from "@berth/engine";
import { inventory, newInstance, newMember } from "@berth/engine/testing";

/**
 * This package's record shorthands over the engine's builders
 * (`@berth/engine/testing`, free of vitest, so the child processes of the
 * concurrency and crash tests use them too; its ids differ across processes).
 * Instances here carry the default profile and their limits usage, as the
 * engine writes them, so profile links and project counters get rows.
 */
export function inventoryOf(total: number, overrides: Partial<InventoryRecord> = {}): InventoryRecord {
  return inventory(total, overrides);
}

export function memberOf(name: string, inventories: Record<string, InventoryRecord>): NewMember {
  return newMember(name, { inventories });
}

export function instanceOf(
  name: string,
  location: string,
  resources: Record<string, number>,
  overrides: Partial<NewInstance> = {},
): NewInstance {
  return newInstance(name, location, resources, {
    profiles: ["default"],
    limitsUsage: {
      cpu: resources.VCPU ?? 0,
      memoryBytes: (resources.MEMORY_MB ?? 0) * 1024 * 1024,
      diskBytes: 0,
    },
    ...overrides,
  });
}
