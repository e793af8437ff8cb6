/**
 * The instances table's search: every word must appear in one of the
 * columns an operator reads (name, project, member, flavor, status), so
 * "node3 m1.small" finds the small instances on node3.
 */
import type { Instance } from "@berth/api-types";

export type Kind = "all" | "instances" | "reservations";

/** The status column: LXD's status for instances, "Reserved" for reservations (which hold capacity, run nothing). */
export function statusOf(instance: Instance): string {
  return instance.forthcoming ? "Reserved" : instance.status;
}

/** What the name column shows: reservations may be unnamed (addressed by UUID). */
export function labelOf(instance: Instance): string {
  return instance.name === "" ? instance.uuid : instance.name;
}

export function searchInstances(instances: readonly Instance[], query: string, kind: Kind): Instance[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  return instances.filter((instance) => {
    if (kind === "instances" && instance.forthcoming) return false;
    if (kind === "reservations" && !instance.forthcoming) return false;
    if (words.length === 0) return true;
    const haystack = [
      labelOf(instance),
      instance.project,
      instance.location,
      instance.flavor,
      statusOf(instance),
    ]
      .join(" ")
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
