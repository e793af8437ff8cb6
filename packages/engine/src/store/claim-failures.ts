import { EngineError } from "../errors.js";
import type { ClaimFailureDetails } from "./port.js";
import type { InventoryRecord } from "./records.js";

/**
 * The refusals every Store's claim can answer with. They live here, beside
 * the port, so that each Store (in-memory, SQLite, a future PostgreSQL one)
 * refuses with the same kind, text and details, which the engine re-plans on
 * and the store contract suite checks.
 */
export function claimFailure(
  kind: "conflict" | "insufficient_capacity",
  message: string,
  details: ClaimFailureDetails,
): EngineError {
  return new EngineError(kind, message, details as unknown as Record<string, unknown>);
}

/** The member has no inventory of a class the claim allocates. */
export function noInventoryFailure(member: string, resourceClass: string): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Cluster member "${member}" has no inventory of ${resourceClass}`,
    { reason: "no_inventory", member, resourceClass },
  );
}

/** Whether an allocation of `amount` respects the inventory's min_unit, max_unit and step_size. */
export function meetsUnitConstraints(amount: number, inventory: InventoryRecord): boolean {
  return amount >= inventory.minUnit && amount <= inventory.maxUnit && amount % inventory.stepSize === 0;
}

/** An allocation below min_unit, above max_unit or off the step_size. */
export function constraintsFailure(
  row: { member: string; resourceClass: string; amount: number },
  inventory: InventoryRecord,
): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Allocation of ${row.amount} ${row.resourceClass} on cluster member "${row.member}" would violate inventory constraints`,
    {
      reason: "constraints",
      member: row.member,
      resourceClass: row.resourceClass,
      amount: row.amount,
      minUnit: inventory.minUnit,
      maxUnit: inventory.maxUnit,
      stepSize: inventory.stepSize,
    },
  );
}

/** Growth of `requested` on top of `used` (both ledgers) would pass `capacity`. */
export function capacityFailure(
  member: string,
  resourceClass: string,
  requested: number,
  used: number,
  capacity: number,
): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Allocation of ${requested} ${resourceClass} on cluster member "${member}" would exceed the capacity (used ${used} of ${capacity})`,
    { reason: "capacity", member, resourceClass, requested, used, capacity },
  );
}
