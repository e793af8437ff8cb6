import { z } from "zod";
import { ResourceClassNameSchema } from "./names.js";
import { MAX_INT32 } from "./primitives.js";

/*
 * Inventories follow OpenStack Placement (`placement/schemas/inventory.py`): same field names,
 * bounds and defaults. Capacity = (total - reserved) * allocation_ratio.
 */

/** Placement's largest allocation ratio: the single-precision float maximum. */
export const MAX_ALLOCATION_RATIO = 3.40282e38;

export const INVENTORY_DEFAULTS = {
  reserved: 0,
  min_unit: 1,
  max_unit: MAX_INT32,
  step_size: 1,
  allocation_ratio: 1.0,
} as const;

const amount = (min: number) => z.number().int().min(min).max(MAX_INT32);

const inventoryFields = {
  total: amount(1),
  reserved: amount(0).default(INVENTORY_DEFAULTS.reserved),
  min_unit: amount(1).default(INVENTORY_DEFAULTS.min_unit),
  max_unit: amount(1).default(INVENTORY_DEFAULTS.max_unit),
  step_size: amount(1).default(INVENTORY_DEFAULTS.step_size),
  allocation_ratio: z
    .number()
    .positive()
    .max(MAX_ALLOCATION_RATIO)
    .default(INVENTORY_DEFAULTS.allocation_ratio),
};

type InventoryLike = { total: number; reserved: number; min_unit: number; max_unit: number };

/**
 * Cross-field rules. Placement itself only refuses reserved > total (negative capacity);
 * Berth also refuses min_unit > max_unit, which Placement accepts but which makes every
 * allocation impossible, so it is always an operator mistake.
 */
function checkInventory(inventory: InventoryLike, ctx: z.RefinementCtx): void {
  if (inventory.reserved > inventory.total) {
    ctx.addIssue({ code: "custom", path: ["reserved"], message: "must not be greater than total" });
  }
  if (inventory.min_unit > inventory.max_unit) {
    ctx.addIssue({ code: "custom", path: ["min_unit"], message: "must not be greater than max_unit" });
  }
}

/** One class's inventory as returned (every field present) and as written (defaults filled). */
export const InventorySchema = z.strictObject(inventoryFields).superRefine(checkInventory);
export type Inventory = z.infer<typeof InventorySchema>;
export type InventoryInput = z.input<typeof InventorySchema>;

/**
 * `PUT /1.0/cluster/members/NAME/inventories/CLASS`: one inventory plus the member's
 * `generation` as last read; a stale generation is a conflict (409), as in Placement.
 */
export const InventoryPutSchema = z
  .strictObject({ generation: z.number().int().min(0), ...inventoryFields })
  .superRefine(checkInventory);
export type InventoryPut = z.infer<typeof InventoryPutSchema>;

/** `PUT /1.0/cluster/members/NAME/inventories`: replace the member's whole set of inventories. */
export const InventoriesPutSchema = z.strictObject({
  generation: z.number().int().min(0),
  inventories: z.record(ResourceClassNameSchema, InventorySchema),
});
export type InventoriesPut = z.infer<typeof InventoriesPutSchema>;

/**
 * `GET /1.0/cluster/members/NAME/inventories`: every class with its effective inventory.
 * `derived` marks VCPU/MEMORY_MB/DISK_GB computed from the member's reported resources
 * (explicit inventories always win over derived ones); `used` and `forthcoming` are the
 * two ledgers' usage, so a fill view needs no request per class.
 */
const inventoryWithUsageFields = {
  ...inventoryFields,
  derived: z.boolean(),
  used: z.number().int().min(0),
  forthcoming: z.number().int().min(0),
};

export const MemberInventoriesSchema = z.strictObject({
  generation: z.number().int().min(0),
  inventories: z.record(
    ResourceClassNameSchema,
    z.strictObject(inventoryWithUsageFields).superRefine(checkInventory),
  ),
});
export type MemberInventories = z.infer<typeof MemberInventoriesSchema>;

/**
 * One class on one member as a fill view shows it: the inventory, both ledgers' usage and
 * Placement's capacity `(total - reserved) * allocation_ratio` (free = capacity - used -
 * forthcoming). In `GET /1.0/cluster/members?recursion=2`.
 */
export const InventoryFillSchema = z
  .strictObject({ ...inventoryWithUsageFields, capacity: z.number().min(0) })
  .superRefine(checkInventory);
export type InventoryFill = z.infer<typeof InventoryFillSchema>;
