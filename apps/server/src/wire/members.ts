import type { ClusterMember, MemberInventories } from "@berth/api-types";
import type { InventoryView, MemberInfo } from "@berth/engine";

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
    inventories[resourceClass] = {
      ...inventoryFields(view),
      derived: view.source === "derived",
      used: view.used,
      forthcoming: view.forthcoming,
    };
  }
  return { generation: inv.generation, inventories };
}
