import { type Inventory, inventoryCapacity } from "./inventory.js";

/** The one "it fits" value: shared, so a passing check allocates nothing. */
export const FIT_OK: { readonly ok: true } = Object.freeze({ ok: true as const });

interface FailureBase {
  readonly ok: false;
  readonly resource_class: string;
  readonly amount: number;
  readonly message: string;
}

/**
 * Why an amount does not fit. Placement tells two families apart in its
 * errors: "would violate inventory constraints" (min_unit, max_unit,
 * step_size) and "would exceed the capacity"; the texts keep those phrases.
 */
export type FitFailure =
  | (FailureBase & { readonly kind: "below-min-unit"; readonly min_unit: number })
  | (FailureBase & { readonly kind: "above-max-unit"; readonly max_unit: number })
  | (FailureBase & { readonly kind: "not-step-multiple"; readonly step_size: number })
  | (FailureBase & { readonly kind: "exceeds-capacity"; readonly used: number; readonly capacity: number })
  | (FailureBase & { readonly kind: "no-inventory" });

export type FitVerdict = typeof FIT_OK | FitFailure;

function violates(resourceClass: string, amount: number, why: string): string {
  return (
    `Unable to allocate ${amount} ${resourceClass}. ` +
    `The requested amount would violate inventory constraints: ${why}.`
  );
}

/** Which of Placement's unit constraints an amount breaks (FitFailure kinds). */
export type UnitViolation = "below-min-unit" | "above-max-unit" | "not-step-multiple";

/**
 * Placement's unit constraints on one allocation: min_unit <= amount <=
 * max_unit and amount % step_size == 0, checked in that order. The one
 * home of the rule: `checkFit` (placement) and every Store's claim call it.
 */
export function unitViolation(inventory: Inventory, amount: number): UnitViolation | undefined {
  if (amount < inventory.minUnit) return "below-min-unit";
  if (amount > inventory.maxUnit) return "above-max-unit";
  if (amount % inventory.stepSize !== 0) return "not-step-multiple";
  return undefined;
}

function unitFailure(
  violation: UnitViolation,
  resourceClass: string,
  inventory: Inventory,
  amount: number,
): FitFailure {
  switch (violation) {
    case "below-min-unit":
      return {
        ok: false,
        kind: violation,
        resource_class: resourceClass,
        amount,
        min_unit: inventory.minUnit,
        message: violates(resourceClass, amount, `${amount} is below min_unit ${inventory.minUnit}`),
      };
    case "above-max-unit":
      return {
        ok: false,
        kind: violation,
        resource_class: resourceClass,
        amount,
        max_unit: inventory.maxUnit,
        message: violates(resourceClass, amount, `${amount} is above max_unit ${inventory.maxUnit}`),
      };
    case "not-step-multiple":
      return {
        ok: false,
        kind: violation,
        resource_class: resourceClass,
        amount,
        step_size: inventory.stepSize,
        message: violates(
          resourceClass,
          amount,
          `${amount} is not a multiple of step_size ${inventory.stepSize}`,
        ),
      };
  }
}

/**
 * Does `amount` more of `resourceClass` fit an inventory that already has
 * `used` allocated? Placement's four checks: the unit constraints
 * (`unitViolation`), then used + amount <= capacity. Called per candidate
 * per placement: it allocates only when it fails.
 */
export function checkFit(
  resourceClass: string,
  inventory: Inventory,
  used: number,
  amount: number,
): FitVerdict {
  const violation = unitViolation(inventory, amount);
  if (violation !== undefined) return unitFailure(violation, resourceClass, inventory, amount);
  const capacity = inventoryCapacity(inventory);
  if (used + amount > capacity) {
    return {
      ok: false,
      kind: "exceeds-capacity",
      resource_class: resourceClass,
      amount,
      used,
      capacity,
      message:
        `Unable to allocate ${amount} ${resourceClass}. ` +
        `The requested amount would exceed the capacity: ${used} used + ${amount} requested > capacity ${capacity}.`,
    };
  }
  return FIT_OK;
}

/** The failure for a class the member has no inventory of (Placement: "Inventory for 'X' ... invalid"). */
export function noInventory(resourceClass: string, amount: number): FitFailure {
  return {
    ok: false,
    kind: "no-inventory",
    resource_class: resourceClass,
    amount,
    message: `Unable to allocate ${amount} ${resourceClass}. Inventory for '${resourceClass}' on this member invalid: no such inventory.`,
  };
}
