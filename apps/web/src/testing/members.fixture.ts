import type { ClusterMemberFull, InventoryFill } from "@berth/api-types";

/** One class's inventory as `members?recursion=2` answers it; capacity computed as the server does. */
export function inventory(
  total: number,
  used = 0,
  forthcoming = 0,
  allocationRatio = 1,
  reserved = 0,
): InventoryFill {
  return {
    total,
    reserved,
    min_unit: 1,
    max_unit: total,
    step_size: 1,
    allocation_ratio: allocationRatio,
    derived: false,
    used,
    forthcoming,
    capacity: (total - reserved) * allocationRatio,
  };
}

/** A member as the cluster view receives it. */
export function member(
  name: string,
  options: Partial<
    Pick<ClusterMemberFull, "status" | "failure_domain" | "groups" | "traits" | "instance_count" | "config">
  > & {
    inventories?: Record<string, InventoryFill>;
  } = {},
): ClusterMemberFull {
  return {
    server_name: name,
    url: `https://${name}:8443`,
    database: false,
    status: options.status ?? "Online",
    message: "",
    architecture: "x86_64",
    roles: [],
    failure_domain: options.failure_domain ?? "",
    description: "",
    config: options.config ?? {},
    groups: options.groups ?? [],
    traits: options.traits ?? [],
    inventories: options.inventories ?? {},
    instance_count: options.instance_count ?? 0,
  };
}
