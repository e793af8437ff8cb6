/**
 * Two-member instances (Ganeti's DRBD): an instance may name a `secondary`
 * member that holds a mirror of its storage and takes it over when its
 * location (the primary) fails. The rules, as Ganeti's hail checks them:
 *
 * - the secondary is a provider that exists and is not the location;
 * - its storage counts on both members: every DISK_GB row on the location
 *   has an equal row on the secondary, and the secondary holds nothing
 *   else than such mirrors of rows on the location (memory and CPUs run on
 *   the primary only);
 * - N+1: every member keeps the memory free to take over, from any ONE
 *   failed primary, the instances mirrored on it:
 *   `used + forthcoming + max over primaries (mirrored MEMORY_MB) <= capacity`,
 *   checked on every member where that sum grows (Placement's formula for
 *   the capacity, so an inventory shrunk below it blocks no shrinking claim).
 *
 * A Store reads each touched provider's mirrored memory by primary
 * (`ProviderRows.failover`, summed over its instances with that secondary)
 * and, when it keeps such sums itself, adds `failoverChanges`.
 */
import { inventoryCapacity } from "@berth/resources";
import { invalid } from "../../base/errors.js";
import type { NewInstance } from "../../store/port.js";
import type { AllocationRow } from "../../store/records.js";
import { consumedOf } from "./capacity.js";
import type { ConsumptionChanges } from "./consumption.js";
import { failoverFailure, memberMissingFailure } from "./failures.js";
import type { ProviderRows } from "./rows.js";

/** The class N+1 reserves on a secondary. */
export const FAILOVER_CLASS = "MEMORY_MB";
/** The class that must be mirrored on the secondary (any storage class may be). */
export const MIRRORED_CLASS = "DISK_GB";
/** Classes that only the primary consumes: never on a secondary. */
const PRIMARY_ONLY: ReadonlySet<string> = new Set(["MEMORY_MB", "VCPU", "PCPU"]);

/** One change of a member's mirrored memory from one primary. */
export interface FailoverChange {
  /** The member holding the mirror copy, which must be able to take the primary's instances over. */
  readonly secondary: string;
  /** The member the mirrored instances run on. */
  readonly primary: string;
  /** MEMORY_MB added (negative: freed). */
  readonly memory: number;
}

/** What a mirrored instance's secondary must be ready to run: its memory on its location, both ledgers. */
export function failoverMemoryOf(instance: Pick<NewInstance, "location" | "allocations">): number {
  let total = 0;
  for (const row of instance.allocations)
    if (row.member === instance.location && row.resourceClass === FAILOVER_CLASS) total += row.amount;
  return total;
}

/**
 * An instance's rows with its storage mirrored on `secondary`: every row on
 * `location` of a class the primary alone does not consume, copied. What a
 * caller builds a mirrored record from; the rules accept exactly this.
 */
export function withMirrors(
  allocations: readonly AllocationRow[],
  location: string,
  secondary: string,
): AllocationRow[] {
  const out = [...allocations];
  for (const row of allocations)
    if (row.member === location && row.amount !== 0 && !PRIMARY_ONLY.has(row.resourceClass))
      out.push({ ...row, member: secondary });
  return out;
}

function rowKey(row: AllocationRow): string {
  return `${row.resourceClass}\u0000${row.ledger}\u0000${row.amount}`;
}

/** The shape of a mirrored record: a distinct, existing secondary holding exactly the mirrors of its storage. */
export function checkMirrorShape(record: NewInstance, providers: ReadonlyMap<string, ProviderRows>): void {
  const secondary = record.secondary;
  if (secondary === undefined) return;
  const label = record.name === "" ? record.id : record.name;
  if (secondary === record.location)
    throw invalid(
      `Instance "${label}": its secondary must be another member than its location "${secondary}"`,
    );
  if (!providers.has(secondary)) throw memberMissingFailure(secondary);
  // Each row on the location that the secondary must or may mirror, as a multiset.
  const mirrorable = new Map<string, number>();
  const required = new Map<string, number>();
  for (const row of record.allocations) {
    if (row.member !== record.location || row.amount === 0 || PRIMARY_ONLY.has(row.resourceClass)) continue;
    const key = rowKey(row);
    mirrorable.set(key, (mirrorable.get(key) ?? 0) + 1);
    if (row.resourceClass === MIRRORED_CLASS) required.set(key, (required.get(key) ?? 0) + 1);
  }
  for (const row of record.allocations) {
    if (row.member !== secondary || row.amount === 0) continue;
    const key = rowKey(row);
    const left = mirrorable.get(key) ?? 0;
    if (left === 0)
      throw invalid(
        `Instance "${label}": its ${row.amount} ${row.resourceClass} on secondary "${secondary}" mirrors nothing on its location "${record.location}"`,
      );
    mirrorable.set(key, left - 1);
    const need = required.get(key);
    if (need !== undefined) required.set(key, need - 1);
  }
  for (const [key, missing] of required)
    if (missing > 0)
      throw invalid(
        `Instance "${label}": its ${key.split("\u0000")[2]} ${MIRRORED_CLASS} on "${record.location}" is not mirrored on its secondary "${secondary}"`,
      );
}

const isMirrored = (instance: Pick<NewInstance, "secondary">) => instance.secondary !== undefined;

/** Whether a provider the claim changes holds mirrors (its N+1 may be at stake even without new ones). */
function touchesMirrors(changes: ConsumptionChanges, providers: ReadonlyMap<string, ProviderRows>): boolean {
  for (const change of changes.byClass) {
    const failover = providers.get(change.provider)?.failover;
    if (failover !== undefined && Object.keys(failover).length > 0) return true;
  }
  return false;
}

/** How the claim changes each member's mirrored memory, per primary (zero sums dropped). */
export function failoverChangesOf(
  removed: readonly Pick<NewInstance, "location" | "secondary" | "allocations">[],
  added: readonly Pick<NewInstance, "location" | "secondary" | "allocations">[],
): FailoverChange[] {
  // Most claims mirror nothing: no sums to build.
  if (!removed.some(isMirrored) && !added.some(isMirrored)) return [];
  const sums = new Map<string, { secondary: string; primary: string; memory: number }>();
  const count = (instance: Pick<NewInstance, "location" | "secondary" | "allocations">, sign: number) => {
    if (instance.secondary === undefined) return;
    const memory = failoverMemoryOf(instance);
    if (memory === 0) return;
    const key = `${instance.secondary}\u0000${instance.location}`;
    const sum = sums.get(key);
    if (sum === undefined)
      sums.set(key, { secondary: instance.secondary, primary: instance.location, memory: sign * memory });
    else sum.memory += sign * memory;
  };
  for (const old of removed) count(old, -1);
  for (const record of added) count(record, 1);
  return [...sums.values()].filter((change) => change.memory !== 0);
}

/** The largest mirrored sum (and whose) of `failover` with `changes` (by primary) applied. */
function largestReserve(
  failover: Readonly<Record<string, number>> | undefined,
  changes: ReadonlyMap<string, number> | undefined,
): { primary: string; memory: number } {
  let best = { primary: "", memory: 0 };
  const consider = (primary: string, memory: number) => {
    if (memory > best.memory) best = { primary, memory };
  };
  for (const [primary, memory] of Object.entries(failover ?? {}))
    consider(primary, memory + (changes?.get(primary) ?? 0));
  for (const [primary, change] of changes ?? [])
    if (failover?.[primary] === undefined) consider(primary, change);
  return best;
}

/**
 * N+1 on every member whose memory or mirrored memory the claim changes:
 * where `consumed + largest mirrored sum` grows past the capacity, refuses
 * with a `failover` failure naming the primary it could not take over.
 */
export function checkFailover(
  changes: ConsumptionChanges,
  failoverChanges: readonly FailoverChange[],
  providers: ReadonlyMap<string, ProviderRows>,
): void {
  // Most claims mirror nothing on members that hold no mirrors: nothing to check (the loop below finds nothing).
  if (failoverChanges.length === 0 && !touchesMirrors(changes, providers)) return;
  const bySecondary = new Map<string, Map<string, number>>();
  for (const change of failoverChanges) {
    let byPrimary = bySecondary.get(change.secondary);
    if (byPrimary === undefined) bySecondary.set(change.secondary, (byPrimary = new Map()));
    byPrimary.set(change.primary, (byPrimary.get(change.primary) ?? 0) + change.memory);
  }
  const memoryGrowth = new Map<string, number>();
  for (const change of changes.byClass)
    if (change.resourceClass === FAILOVER_CLASS)
      memoryGrowth.set(change.provider, change.used + change.forthcoming);
  const toCheck = new Set(bySecondary.keys());
  for (const [name, growth] of memoryGrowth) {
    const failover = providers.get(name)?.failover;
    if (growth > 0 && failover !== undefined && Object.keys(failover).length > 0) toCheck.add(name);
  }
  for (const name of toCheck) {
    const provider = providers.get(name);
    const inventory = provider?.inventories[FAILOVER_CLASS];
    if (provider === undefined || inventory === undefined) continue;
    const consumed = consumedOf(provider, FAILOVER_CLASS);
    const before = consumed + largestReserve(provider.failover, undefined).memory;
    const reserve = largestReserve(provider.failover, bySecondary.get(name));
    const used = consumed + (memoryGrowth.get(name) ?? 0);
    const after = used + reserve.memory;
    const capacity = inventoryCapacity(inventory);
    if (after > before && after > capacity)
      throw failoverFailure(name, reserve.primary, reserve.memory, used, capacity);
  }
}

/** Applies failover changes to `failover` sums by primary, in place (zero sums dropped). */
export function addFailover(failover: Record<string, number>, primary: string, memory: number): void {
  const next = (failover[primary] ?? 0) + memory;
  if (next === 0) delete failover[primary];
  else failover[primary] = next;
}

/**
 * A provider's `failover` from the mirrored instances' memory as a Store
 * reads it (one `[primary, MEMORY_MB]` per instance), summed per primary;
 * undefined when it mirrors nothing.
 */
export function failoverOf(
  mirrored: readonly (readonly [string, number])[],
): Record<string, number> | undefined {
  if (mirrored.length === 0) return undefined;
  const failover: Record<string, number> = {};
  for (const [primary, memory] of mirrored) addFailover(failover, primary, memory);
  return failover;
}
