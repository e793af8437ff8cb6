import type { AllocationRow, Ledger } from "./records.js";

/** Allocation rows for an instance holding `resources` on `member` in `ledger` (zeros dropped). */
export function allocationsOf(
  member: string,
  resources: Record<string, number>,
  ledger: Ledger = "used",
): AllocationRow[] {
  return Object.entries(resources)
    .filter(([, amount]) => amount !== 0)
    .map(([resourceClass, amount]) => ({ member, resourceClass, ledger, amount }));
}
