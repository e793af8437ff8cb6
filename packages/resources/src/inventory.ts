import { INVENTORY_DEFAULTS, MAX_ALLOCATION_RATIO, MAX_INT32 } from "@berth/api-types";
import { err, ok, type Result } from "./result.js";

/**
 * One member's inventory of one resource class: the domain value every
 * layer shares (the engine's `InventoryRecord` is this plus where it came
 * from). Placement's snake_case names (`min_unit`, `allocation_ratio`) are
 * the wire's: `InventoryInput` below takes them, and the server writes them
 * back out. All amounts are in the class's own unit (VCPU: CPUs,
 * MEMORY_MB: MiB, DISK_GB: GiB, custom classes: units).
 */
export interface Inventory {
  readonly total: number;
  readonly reserved: number;
  readonly minUnit: number;
  readonly maxUnit: number;
  readonly stepSize: number;
  readonly allocationRatio: number;
}

/** What a client may send, with Placement's field names: only `total` is required. */
export interface InventoryInput {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
  readonly allocation_ratio?: number;
}

/**
 * Placement's bounds and the defaults its HTTP layer fills in for omitted
 * fields live with the wire schema (`@berth/api-types` inventories), so the
 * LXD-side schema and this validation cannot drift apart.
 */
export { INVENTORY_DEFAULTS, MAX_ALLOCATION_RATIO };

/** Largest integer Placement stores (a signed 32-bit column). */
export const MAX_INT = MAX_INT32;

type IntegerField = "total" | "reserved" | "min_unit" | "max_unit" | "step_size";

const INTEGER_MINIMUMS: Readonly<Record<IntegerField, number>> = {
  total: 1,
  reserved: 0,
  min_unit: 1,
  max_unit: 1,
  step_size: 1,
};

export type InventoryError =
  | {
      readonly kind: "invalid-inventory-field";
      readonly field: keyof InventoryInput;
      readonly value: unknown;
      readonly message: string;
    }
  | { readonly kind: "missing-total"; readonly message: string }
  | {
      readonly kind: "reserved-exceeds-total";
      readonly resource_class: string;
      readonly total: number;
      readonly reserved: number;
      readonly message: string;
    };

/**
 * Python-style repr of a JSON value, so schema messages read like
 * Placement's jsonschema texts ('x' is not of type 'integer').
 */
function reprJson(value: unknown): string {
  if (typeof value === "string") return `'${value}'`;
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return JSON.stringify(value) ?? String(value);
}

function schemaError(
  field: keyof InventoryInput,
  value: unknown,
  detail: string,
  keyword: string,
): InventoryError {
  return {
    kind: "invalid-inventory-field",
    field,
    value,
    message: `JSON does not validate: ${detail}\n\nFailed validating '${keyword}' in schema['properties']['${field}']`,
  };
}

function checkInteger(field: IntegerField, value: unknown): InventoryError | undefined {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    return schemaError(field, value, `${reprJson(value)} is not of type 'integer'`, "type");
  }
  const minimum = INTEGER_MINIMUMS[field];
  if (value < minimum) {
    return schemaError(field, value, `${value} is less than the minimum of ${minimum}`, "minimum");
  }
  if (value > MAX_INT) {
    return schemaError(field, value, `${value} is greater than the maximum of ${MAX_INT}`, "maximum");
  }
  return undefined;
}

/**
 * Validates an inventory record the way Placement does on write and fills
 * the defaults. Like Placement (microversion >= 1.26) `reserved == total`
 * is legal (capacity 0) and only a negative capacity is refused; like
 * Placement it does not check min_unit <= max_unit or max_unit <= total:
 * inconsistent values simply make allocations impossible.
 */
export function normalizeInventory(
  resourceClass: string,
  input: InventoryInput,
): Result<Inventory, InventoryError> {
  // Inputs come from JSON bodies: check what is there, not what the type says.
  const raw = input as unknown as Record<string, unknown>;
  if (raw.total === undefined) {
    return err({ kind: "missing-total", message: "JSON does not validate: 'total' is a required property" });
  }
  const merged: Record<string, unknown> = { ...INVENTORY_DEFAULTS, ...stripUndefined(raw) };
  for (const field of ["total", "reserved", "min_unit", "max_unit", "step_size"] as const) {
    const problem = checkInteger(field, merged[field]);
    if (problem) return err(problem);
  }
  const ratio = merged.allocation_ratio;
  if (typeof ratio !== "number" || !Number.isFinite(ratio)) {
    return err(schemaError("allocation_ratio", ratio, `${reprJson(ratio)} is not of type 'number'`, "type"));
  }
  if (ratio > MAX_ALLOCATION_RATIO) {
    return err(
      schemaError(
        "allocation_ratio",
        ratio,
        `${ratio} is greater than the maximum of ${MAX_ALLOCATION_RATIO}`,
        "maximum",
      ),
    );
  }
  const inventory: Inventory = {
    total: merged.total as number,
    reserved: merged.reserved as number,
    minUnit: merged.min_unit as number,
    maxUnit: merged.max_unit as number,
    stepSize: merged.step_size as number,
    allocationRatio: ratio,
  };
  if (Math.trunc(inventoryCapacity(inventory)) < 0) {
    return err({
      kind: "reserved-exceeds-total",
      resource_class: resourceClass,
      total: inventory.total,
      reserved: inventory.reserved,
      message: `Invalid inventory for '${resourceClass}'. The reserved value is greater than total.`,
    });
  }
  return ok(inventory);
}

function stripUndefined(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (raw[key] !== undefined) out[key] = raw[key];
  }
  return out;
}

/** The fields Placement's capacity formula reads. */
export type CapacityFields = Pick<Inventory, "total" | "reserved" | "allocationRatio">;

/**
 * Placement's capacity formula, `(total - reserved) * allocation_ratio`,
 * kept as a float exactly like Placement's SQL filter (it truncates only
 * for display). The one home of the formula: the placement filters, every
 * Store's claim, check() and the metrics all call it.
 */
export function inventoryCapacity(inventory: CapacityFields): number {
  return (inventory.total - inventory.reserved) * inventory.allocationRatio;
}

/** Capacity as Placement displays it in provider summaries (truncated to an integer). */
export function displayedCapacity(inventory: CapacityFields): number {
  return Math.trunc(inventoryCapacity(inventory));
}
