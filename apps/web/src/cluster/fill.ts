/**
 * A member's fill per resource class, as the server reports it
 * (`GET /1.0/cluster/members?recursion=2`): capacity is Placement's
 * `(total - reserved) * allocation_ratio`, computed by the server; the
 * console only splits it into what the bars draw.
 */
import type { ClusterMemberFull, InventoryFill } from "@berth/api-types";

export interface ClassFill {
  capacity: number;
  used: number;
  /** Held by reservations (Ganeti forthcoming instances). */
  forthcoming: number;
  free: number;
  allocationRatio: number;
  /** (used + forthcoming) / capacity: 0 when empty, 1 when full, NaN without capacity. */
  fraction: number;
}

type FillFields = Pick<InventoryFill, "capacity" | "used" | "forthcoming" | "allocation_ratio">;

export function classFill(inventory: FillFields): ClassFill {
  const capacity = inventory.capacity;
  const taken = inventory.used + inventory.forthcoming;
  return {
    capacity,
    used: inventory.used,
    forthcoming: inventory.forthcoming,
    free: Math.max(0, capacity - taken),
    allocationRatio: inventory.allocation_ratio,
    fraction: capacity > 0 ? taken / capacity : Number.NaN,
  };
}

/** The member's fill of one class, or undefined when it has no inventory of it. */
export function memberFill(member: ClusterMemberFull, resourceClass: string): ClassFill | undefined {
  const inventory = member.inventories[resourceClass];
  return inventory === undefined ? undefined : classFill(inventory);
}

/** The classes present on any member, in the order `known` lists them (the server's), unknown ones after by name. */
export function classesOf(members: readonly ClusterMemberFull[], known: readonly string[]): string[] {
  const present = new Set<string>();
  for (const member of members) for (const resourceClass in member.inventories) present.add(resourceClass);
  const ordered = known.filter((name) => present.has(name));
  const rest = [...present].filter((name) => !known.includes(name)).sort();
  return [...ordered, ...rest];
}

/** The cluster's fill of one class: sums over online, non-evacuated members' inventories. */
export function clusterFill(members: readonly ClusterMemberFull[], resourceClass: string): ClassFill {
  let capacity = 0;
  let used = 0;
  let forthcoming = 0;
  for (const member of members) {
    const inventory = member.inventories[resourceClass];
    if (inventory === undefined || member.status !== "Online") continue;
    capacity += inventory.capacity;
    used += inventory.used;
    forthcoming += inventory.forthcoming;
  }
  // Ratios differ per member: a cluster total has none of its own.
  return classFill({ capacity, used, forthcoming, allocation_ratio: Number.NaN });
}
