import type { AllocationRow, Ledger } from "./records.js";

/**
 * Allocation rows for an instance holding `resources` on `member` in
 * `ledger` (zeros dropped); a class in `children` is held on that child
 * provider of the member's tree instead (its uuid names the provider).
 */
export function allocationsOf(
  member: string,
  resources: Record<string, number>,
  ledger: Ledger = "used",
  children?: Readonly<Record<string, string>>,
): AllocationRow[] {
  return Object.entries(resources)
    .filter(([, amount]) => amount !== 0)
    .map(([resourceClass, amount]) => ({
      member: children?.[resourceClass] ?? member,
      resourceClass,
      ledger,
      amount,
    }));
}
