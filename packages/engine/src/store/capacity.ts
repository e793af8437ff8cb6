import type { InventoryRecord } from "./records.js";

/**
 * Placement's capacity formula: `(total - reserved) * allocation_ratio`.
 * Kept here (not only in @berth/resources) because every Store
 * implementation must apply exactly the same rule inside its transaction.
 */
export function capacityOf(
  inventory: Pick<InventoryRecord, "total" | "reserved" | "allocationRatio">,
): number {
  return (inventory.total - inventory.reserved) * inventory.allocationRatio;
}
