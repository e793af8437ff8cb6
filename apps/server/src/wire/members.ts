import type { ClusterMember, ClusterMemberFull, MemberInventories } from "@berth/api-types";
import type { InventoryView, MemberInfo, ProviderRecord } from "@berth/engine";
import { inventoryCapacity } from "@berth/resources";

const STATUS_MESSAGES: Record<string, string> = {
  Online: "Fully operational",
  Offline: "No heartbeat within cluster.offline_threshold",
  Evacuated: "Unavailable due to maintenance",
};

/** Engine member record -> LXD `ClusterMember` (plus Berth's traits). */
export function memberToWire(info: MemberInfo): ClusterMember {
  const r = info.record;
  return {
    server_name: r.name,
    url: r.url,
    database: r.roles.includes("database"),
    status: info.status,
    message: STATUS_MESSAGES[info.status] ?? "",
    architecture: r.architecture as ClusterMember["architecture"],
    roles: [...r.roles] as ClusterMember["roles"],
    failure_domain: r.failureDomain,
    description: r.description,
    config: { ...r.config },
    groups: [...r.groups],
    traits: [...r.traits],
  };
}

function inventoryFields(view: InventoryView) {
  return {
    total: view.total,
    reserved: view.reserved,
    min_unit: view.minUnit,
    max_unit: view.maxUnit,
    step_size: view.stepSize,
    allocation_ratio: view.allocationRatio,
  };
}

/** The inventory with where it came from and both ledgers' usage. */
function withUsage(view: InventoryView) {
  return {
    ...inventoryFields(view),
    derived: view.source === "derived",
    used: view.used,
    forthcoming: view.forthcoming,
  };
}

export function inventoryToWire(view: InventoryView) {
  return { ...inventoryFields(view), used: view.used, forthcoming: view.forthcoming };
}

/**
 * `GET .../inventories`: the member's generation and every effective
 * inventory, derived or explicit, each with `used` and `forthcoming`.
 */
export function inventoriesToWire(inv: {
  generation: number;
  inventories: Record<string, InventoryView>;
}): MemberInventories {
  const inventories: MemberInventories["inventories"] = {};
  for (const [resourceClass, view] of Object.entries(inv.inventories)) {
    inventories[resourceClass] = withUsage(view);
  }
  return { generation: inv.generation, inventories };
}

/**
 * `GET /1.0/cluster/members?recursion=2`: the member with every inventory's
 * usage and capacity (`inventories` is the engine's view of the member), and
 * its instance count (reservations included).
 */
export function memberFullToWire(
  info: MemberInfo,
  inventories: { inventories: Record<string, InventoryView> },
): ClusterMemberFull {
  const fill: ClusterMemberFull["inventories"] = {};
  for (const [resourceClass, view] of Object.entries(inventories.inventories)) {
    fill[resourceClass] = { ...withUsage(view), capacity: view.capacity };
  }
  return { ...memberToWire(info), inventories: fill, instance_count: info.instances };
}

/** The status message of a root provider created through Placement, shown among the members. */
export const PLACEMENT_ROOT_MESSAGE =
  "Placement resource provider: created through the Placement API, it never heartbeats; Placement clients allocate on it, LXD placements do not";

/**
 * A root resource provider created through the Placement API (not a
 * member) as the LXD API lists it among the members: `Offline`, since it
 * never heartbeats, with a message saying what it is.
 */
export function placementRootToWire(provider: ProviderRecord): ClusterMember {
  return {
    server_name: provider.name,
    url: "",
    database: false,
    status: "Offline",
    message: PLACEMENT_ROOT_MESSAGE,
    architecture: "",
    roles: [],
    failure_domain: "default",
    description: `OpenStack Placement resource provider ${provider.uuid}`,
    config: {},
    groups: [],
    traits: [...provider.traits],
  };
}

/** The same with its inventories, their usage by Placement consumers and capacity (`recursion=2`). */
export function placementRootFullToWire(
  provider: ProviderRecord,
  used: Readonly<Record<string, number>>,
): ClusterMemberFull {
  const fill: ClusterMemberFull["inventories"] = {};
  for (const [resourceClass, inventory] of Object.entries(provider.inventories)) {
    fill[resourceClass] = {
      total: inventory.total,
      reserved: inventory.reserved,
      min_unit: inventory.minUnit,
      max_unit: inventory.maxUnit,
      step_size: inventory.stepSize,
      allocation_ratio: inventory.allocationRatio,
      derived: false,
      used: used[resourceClass] ?? 0,
      forthcoming: 0,
      capacity: inventoryCapacity(inventory),
    };
  }
  return { ...placementRootToWire(provider), inventories: fill, instance_count: 0 };
}
