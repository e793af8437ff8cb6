/**
 * Per-class capacity with Placement's formula over both ledgers: for every
 * (provider, class) whose consumption the claim grows,
 * `used + forthcoming + growth <= (total - reserved) * allocation_ratio`.
 * Reservations count as used, so committing one never fails for capacity.
 * Consumption that does not grow is never re-checked, so an inventory
 * shrunk below its usage does not block commits, moves or deletions.
 */
import { inventoryCapacity } from "@berth/resources";
import type { ConsumptionChanges } from "./consumption.js";
import { capacityFailure, noInventoryFailure } from "./failures.js";
import type { ProviderRows } from "./rows.js";

/** What a provider's class holds now: instances and reservations alike. */
export function consumedOf(
  provider: Pick<ProviderRows, "used" | "forthcoming">,
  resourceClass: string,
): number {
  return (provider.used[resourceClass] ?? 0) + (provider.forthcoming[resourceClass] ?? 0);
}

export function checkCapacity(
  changes: ConsumptionChanges,
  providers: ReadonlyMap<string, ProviderRows>,
): void {
  for (const change of changes.byClass) {
    const growth = change.used + change.forthcoming;
    if (growth <= 0) continue;
    // A growing row on a provider that is gone was refused by checkAllocations.
    const provider = providers.get(change.provider);
    if (provider === undefined) continue;
    const inventory = provider.inventories[change.resourceClass];
    if (inventory === undefined) throw noInventoryFailure(change.provider, change.resourceClass);
    const used = consumedOf(provider, change.resourceClass);
    const capacity = inventoryCapacity(inventory);
    if (used + growth > capacity) {
      throw capacityFailure(change.provider, change.resourceClass, growth, used, capacity);
    }
  }
}
