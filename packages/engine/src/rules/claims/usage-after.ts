/**
 * The usage a claim leaves on the providers it touches: what a Store adds
 * to its usage rows, and the authoritative usage it answers with (exactly
 * what a re-read would return, without one).
 */
import type { MemberUsage } from "../../store/port.js";
import type { Ledger } from "../../store/records.js";
import type { ConsumptionChanges } from "./consumption.js";
import type { ProviderRows } from "./rows.js";

/** A change of one class's usage on one provider, in one ledger. */
export interface UsageChange {
  /** The member (or provider uuid). */
  provider: string;
  /** The class. */
  resourceClass: string;
  /** `used` or `forthcoming`. */
  ledger: Ledger;
  /** Units added (negative: released). */
  amount: number;
}

const LEDGERS: readonly Ledger[] = ["used", "forthcoming"];

/** Non-zero changes per (provider, class, ledger), on providers that exist. */
export function usageChangesOf(
  changes: ConsumptionChanges,
  providers: ReadonlyMap<string, ProviderRows>,
): UsageChange[] {
  const out: UsageChange[] = [];
  for (const change of changes.byClass.values()) {
    if (!providers.has(change.provider)) continue;
    for (const ledger of LEDGERS) {
      const amount = change[ledger];
      if (amount !== 0)
        out.push({ provider: change.provider, resourceClass: change.resourceClass, ledger, amount });
    }
  }
  return out;
}

/** Adds `amount` to one class of a ledger, in place, dropping the class when it reaches zero. */
export function addToLedger(ledger: Record<string, number>, resourceClass: string, amount: number): void {
  const next = (ledger[resourceClass] ?? 0) + amount;
  if (next === 0) delete ledger[resourceClass];
  else ledger[resourceClass] = next;
}

/** Usage after the claim of every touched provider that exists, sorted by name (fresh objects). */
export function usageAfter(
  changes: ConsumptionChanges,
  providers: ReadonlyMap<string, ProviderRows>,
): MemberUsage[] {
  const after = new Map<string, MemberUsage>();
  // One provider (every single create) needs no sorting, nor the array to sort.
  const names = changes.touched.size === 1 ? changes.touched : [...changes.touched].sort();
  for (const name of names) {
    const provider = providers.get(name);
    if (provider === undefined) continue;
    after.set(name, { member: name, used: { ...provider.used }, forthcoming: { ...provider.forthcoming } });
  }
  for (const change of changes.byClass.values()) {
    const entry = after.get(change.provider);
    if (entry === undefined) continue;
    for (const ledger of LEDGERS) {
      if (change[ledger] !== 0) addToLedger(entry[ledger], change.resourceClass, change[ledger]);
    }
  }
  return [...after.values()];
}
