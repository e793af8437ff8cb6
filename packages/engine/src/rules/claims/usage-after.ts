/**
 * The usage a claim leaves on the providers it touches: what a Store adds
 * to its usage rows, and the authoritative usage it answers with (exactly
 * what a re-read would return, without one).
 */
import type { MemberUsage } from "../../store/port.js";
import type { Ledger } from "../../store/records.js";
import type { ClassChange, ConsumptionChanges } from "./consumption.js";
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

/** Non-zero changes per (provider, class, ledger), on providers that exist. */
export function usageChangesOf(
  changes: ConsumptionChanges,
  providers: ReadonlyMap<string, ProviderRows>,
): UsageChange[] {
  const out: UsageChange[] = [];
  // The two ledgers named, not looped over a list of their names: a keyed read per change and ledger
  // showed in profiles of single creates (perf-core-6, 2026-11-29).
  for (const { provider, resourceClass, used, forthcoming } of changes.byClass) {
    if (!providers.has(provider)) continue;
    if (used !== 0) out.push({ provider, resourceClass, ledger: "used", amount: used });
    if (forthcoming !== 0) out.push({ provider, resourceClass, ledger: "forthcoming", amount: forthcoming });
  }
  return out;
}

/** Adds `amount` to one class of a ledger, in place, dropping the class when it reaches zero. */
export function addToLedger(ledger: Record<string, number>, resourceClass: string, amount: number): void {
  const next = (ledger[resourceClass] ?? 0) + amount;
  if (next === 0) delete ledger[resourceClass];
  else ledger[resourceClass] = next;
}

/** Adds one (provider, class) change to a provider's usage, in place. */
function addChange(entry: MemberUsage, change: ClassChange): void {
  if (change.used !== 0) addToLedger(entry.used, change.resourceClass, change.used);
  if (change.forthcoming !== 0) addToLedger(entry.forthcoming, change.resourceClass, change.forthcoming);
}

function freshUsage(name: string, provider: ProviderRows): MemberUsage {
  return { member: name, used: { ...provider.used }, forthcoming: { ...provider.forthcoming } };
}

/** Usage after the claim of every touched provider that exists, sorted by name (fresh objects). */
export function usageAfter(
  changes: ConsumptionChanges,
  providers: ReadonlyMap<string, ProviderRows>,
): MemberUsage[] {
  // One provider (every single create): its entry alone, with no map to find it by nor sorting
  // (the map and the array to sort were ~300 of its 512 bytes; perf-core-6 iso loop, 2026-11-29).
  if (changes.touched.length === 1) {
    const name = changes.touched[0]!;
    const provider = providers.get(name);
    if (provider === undefined) return [];
    const entry = freshUsage(name, provider);
    for (const change of changes.byClass) if (change.provider === name) addChange(entry, change);
    return [entry];
  }
  const after = new Map<string, MemberUsage>();
  for (const name of [...changes.touched].sort()) {
    const provider = providers.get(name);
    if (provider !== undefined) after.set(name, freshUsage(name, provider));
  }
  for (const change of changes.byClass) {
    const entry = after.get(change.provider);
    if (entry !== undefined) addChange(entry, change);
  }
  return [...after.values()];
}
