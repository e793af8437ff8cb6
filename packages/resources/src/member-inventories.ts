import { effectiveServerConfig } from "@berth/api-types";
import { type Inventory, type InventoryError, normalizeInventory } from "./inventory.js";
import type { ReportedCapacity } from "./reported-capacity.js";
import { err, ok, type Result } from "./result.js";
import { GiB, MiB } from "./sizes.js";

/** Per-class defaults the cluster configuration decides. */
export interface StandardInventoryDefaults {
  readonly allocation_ratios: { readonly VCPU: number; readonly MEMORY_MB: number; readonly DISK_GB: number };
  /** Held back from instances (e.g. for the host itself), in the class's unit. Default 0. */
  readonly reserved?: { readonly VCPU?: number; readonly MEMORY_MB?: number; readonly DISK_GB?: number };
}

/**
 * The defaults of the cluster's `scheduler.*_allocation_ratio` keys (their
 * one home is @berth/api-types' server config table, which says why: 16.0
 * VCPU and 1.5 MEMORY_MB, Nova's ratios before Stein, because LXD's
 * limits.cpu and limits.memory are ceilings containers share, not
 * reservations; 1.0 DISK_GB). The server passes the configured values.
 */
export const DEFAULT_ALLOCATION_RATIOS = effectiveServerConfig({}).allocationRatios;

export const DEFAULT_STANDARD_INVENTORY: StandardInventoryDefaults = {
  allocation_ratios: DEFAULT_ALLOCATION_RATIOS,
};

export interface MemberInventoryError {
  readonly kind: "invalid-member-inventory";
  readonly resource_class: string;
  readonly cause: InventoryError;
  readonly message: string;
}

/**
 * A member's inventories: VCPU (CPU threads), MEMORY_MB (memory, whole MiB)
 * and DISK_GB (root storage pool size, whole GiB) derived from what the
 * member reports (`reportedCapacity`), with the cluster's default ratios;
 * then every explicit inventory (already validated by `normalizeInventory`
 * when the operator set it), which always wins over a derived one and is
 * the only source of custom classes. A class the reports do not size
 * (absent, or a total that rounds to 0: Placement refuses total < 1) keeps
 * its `lastDerived` total, when there is one: a report that says nothing of
 * a class (an older LXD's heartbeat, a pool being re-created) is not news
 * that the class is gone, and instances may hold it. Else it is left out.
 */
export function deriveMemberInventories(
  reported: ReportedCapacity,
  explicit: Readonly<Record<string, Inventory>> = {},
  defaults: StandardInventoryDefaults = DEFAULT_STANDARD_INVENTORY,
  lastDerived: Readonly<Record<string, Pick<Inventory, "total">>> = {},
): Result<Record<string, Inventory>, MemberInventoryError> {
  const derivedTotals: Record<"VCPU" | "MEMORY_MB" | "DISK_GB", number | undefined> = {
    VCPU: whole(reported.cpuThreads, 1),
    MEMORY_MB: whole(reported.memoryBytes, MiB),
    DISK_GB: whole(reported.rootPoolBytes, GiB),
  };
  const inventories: Record<string, Inventory> = {};
  for (const resourceClass of ["VCPU", "MEMORY_MB", "DISK_GB"] as const) {
    const reportedTotal = derivedTotals[resourceClass];
    const total =
      reportedTotal !== undefined && reportedTotal >= 1 ? reportedTotal : lastDerived[resourceClass]?.total;
    if (total === undefined || resourceClass in explicit) continue;
    const derived = normalizeInventory(resourceClass, {
      total,
      reserved: defaults.reserved?.[resourceClass] ?? 0,
      allocation_ratio: defaults.allocation_ratios[resourceClass],
    });
    if (!derived.ok) return err(memberError(resourceClass, derived.error));
    inventories[resourceClass] = derived.value;
  }
  for (const resourceClass of Object.keys(explicit)) inventories[resourceClass] = explicit[resourceClass]!;
  return ok(inventories);
}

function whole(amount: number | undefined, unit: number): number | undefined {
  return amount === undefined ? undefined : Math.floor(amount / unit);
}

function memberError(resourceClass: string, cause: InventoryError): MemberInventoryError {
  return {
    kind: "invalid-member-inventory",
    resource_class: resourceClass,
    cause,
    message: `Invalid ${resourceClass} inventory: ${cause.message}`,
  };
}
