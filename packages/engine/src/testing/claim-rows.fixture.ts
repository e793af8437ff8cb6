/**
 * Claim-rule test helpers: the rows a Store would read, written compactly.
 */

import { EngineError } from "../base/errors.js";
import type { ClaimRows, ProviderRows } from "../rules/claims/rows.js";
import { storedInstance } from "../store/clone.js";
import type { NewInstance } from "../store/port.js";
import type { AllocationRow, InstanceRecord, Ledger } from "../store/records.js";
import { inventory, newInstance } from "./fixtures.js";

export { inventory, newInstance };

/** One allocation row. */
export function row(
  member: string,
  resourceClass: string,
  amount: number,
  ledger: Ledger = "used",
): AllocationRow {
  return { member, resourceClass, ledger, amount };
}

/** A provider with `VCPU` and `MEMORY_MB` inventories unless given others. */
export function provider(
  inventories: ProviderRows["inventories"] = { VCPU: inventory(8), MEMORY_MB: inventory(8192) },
  used: Record<string, number> = {},
  forthcoming: Record<string, number> = {},
): ProviderRows {
  return { inventories, used, forthcoming };
}

/** Empty rows with the project "default", overridden where a test says. */
export function rows(overrides: Partial<ClaimRows> = {}): ClaimRows {
  return {
    instances: new Map(),
    takenIds: new Set(),
    nameHolders: new Map(),
    projects: new Set(["default"]),
    providers: new Map(),
    projectTotals: new Map(),
    ...overrides,
  };
}

/** A stored instance at `revision`, as a Store returns it. */
export function stored(record: NewInstance, revision = 1): InstanceRecord {
  return storedInstance(record, revision);
}

/** What a rule throws, as an EngineError (fails the test when it throws nothing or something else). */
export function refusal(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error("expected a refusal, but the rule passed");
}
