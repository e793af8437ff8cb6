/**
 * Which providers a Placement listing keeps: the filters of
 * `GET /resource_providers` as a structure (the server parses the query
 * string). Every group of `memberOf` and `required` must match (AND); the
 * names inside one group are alternatives (any of, Placement's `in:`).
 */
import { type Inventory, inventoryCapacity } from "@berth/resources";
import type { ProviderRecord } from "../store/records.js";

/** Placement's `GET /resource_providers` filters; every one given must hold. */
export interface ProviderFilter {
  /** Exactly this name. */
  name?: string;
  /** Exactly this uuid. */
  uuid?: string;
  /** Keep providers of the tree that holds this provider (none if it does not exist). */
  inTree?: string;
  /** Each group: the provider is in at least one of these aggregates. */
  memberOf?: readonly (readonly string[])[];
  /** The provider is in none of these aggregates. */
  notMemberOf?: readonly string[];
  /** Each group: the provider has at least one of these traits. */
  required?: readonly (readonly string[])[];
  /** The provider has none of these traits. */
  forbidden?: readonly string[];
  /** Amounts by class the provider could give one consumer now (capacity, unit limits). */
  resources?: Readonly<Record<string, number>>;
}

/** What each provider's classes hold now, by provider uuid (a Map, or a lookup over live ledgers). */
export interface ProviderUsage {
  /** Resource class -> amount held on the provider with this UUID; undefined when nothing is held there. */
  get(uuid: string): Readonly<Record<string, number>> | undefined;
}

/** Placement's `resources` test: an inventory of each class with room for the amount, within its unit limits. */
export function canProvide(
  provider: ProviderRecord,
  used: Readonly<Record<string, number>>,
  resources: Readonly<Record<string, number>>,
): boolean {
  for (const resourceClass in resources)
    if (!canProvideOne(provider, used, resourceClass, resources[resourceClass] as number)) return false;
  return true;
}

/** `canProvide` for one class (the searches ask class by class; no object per question). */
export function canProvideOne(
  provider: ProviderRecord,
  used: Readonly<Record<string, number>> | undefined,
  resourceClass: string,
  amount: number,
): boolean {
  const inventory = provider.inventories[resourceClass];
  if (inventory === undefined) return false;
  return fitsInventory(inventory, inventoryCapacity(inventory), used?.[resourceClass] ?? 0, amount);
}

/**
 * `canProvideOne`'s test of one inventory, its capacity given (a search
 * that keeps capacities per class computes none per question): within the
 * unit limits, and room for the amount beside what is used.
 */
export function fitsInventory(inventory: Inventory, capacity: number, used: number, amount: number): boolean {
  if (amount < inventory.minUnit || amount > inventory.maxUnit || amount % inventory.stepSize !== 0)
    return false;
  return used + amount <= capacity;
}

/** Whether `have` holds any of `wanted` (Placement's `in:` alternatives). */
export const intersects = (have: readonly string[], wanted: readonly string[]) =>
  wanted.some((w) => have.includes(w));

/** The providers every given filter admits, in the order given (Placement's listing rules). */
export function filterProviders(
  providers: readonly ProviderRecord[],
  filter: ProviderFilter,
  usage: ProviderUsage,
): ProviderRecord[] {
  let treeRoot: string | undefined;
  if (filter.inTree !== undefined) {
    treeRoot = providers.find((p) => p.uuid === filter.inTree)?.rootUuid;
    if (treeRoot === undefined) return [];
  }
  return providers.filter(
    (p) =>
      (filter.name === undefined || p.name === filter.name) &&
      (filter.uuid === undefined || p.uuid === filter.uuid) &&
      (treeRoot === undefined || p.rootUuid === treeRoot) &&
      (filter.memberOf ?? []).every((group) => intersects(p.aggregates, group)) &&
      !intersects(p.aggregates, filter.notMemberOf ?? []) &&
      (filter.required ?? []).every((group) => intersects(p.traits, group)) &&
      !intersects(p.traits, filter.forbidden ?? []) &&
      (filter.resources === undefined || canProvide(p, usage.get(p.uuid) ?? {}, filter.resources)),
  );
}
