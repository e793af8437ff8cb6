import { type Inventory, normalizeInventory } from "../inventory.js";

/** A member's inventories by class from the fields the test cares about (Placement defaults for the rest). */
export function inventories(
  input: Record<string, Parameters<typeof normalizeInventory>[1]>,
): Record<string, Inventory> {
  const out: Record<string, Inventory> = {};
  for (const [name, record] of Object.entries(input)) {
    const result = normalizeInventory(name, record);
    if (!result.ok) throw new Error(result.error.message);
    out[name] = result.value;
  }
  return out;
}
