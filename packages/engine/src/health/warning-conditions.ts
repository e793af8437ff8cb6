/**
 * The warnings Berth derives from its view of the members: a member
 * offline (no heartbeat within `cluster.offline_threshold`), an inventory
 * whose capacity is now below what its member holds (an operator or a
 * report shrank it), a member evacuated for longer than
 * `cluster.evacuation_warning_threshold`, an explicit inventory larger than
 * what its member reports it has. Scriptlet failures are events, raised
 * where they happen (services/engine.ts).
 */
import { deriveMemberInventories, inventoryCapacity, reportedCapacity } from "@berth/resources";
import type { MemberRecord } from "../store/records.js";
import type { WarningCondition } from "./warning-registry.js";

export const WARNING_TYPES = {
  offline: "Offline cluster member",
  inventoryBelowUsage: "Inventory below usage",
  evacuated: "Cluster member evacuated",
  scriptletLoad: "Placement scriptlet failed to load",
  scriptletRun: "Placement scriptlet failed to run",
  inventoryAboveReported: "Explicit inventory above reported capacity",
} as const;

/** The derived types `memberConditions` answers for (the others are events). */
export const DERIVED_WARNING_TYPES = [
  WARNING_TYPES.offline,
  WARNING_TYPES.inventoryBelowUsage,
  WARNING_TYPES.evacuated,
  WARNING_TYPES.inventoryAboveReported,
] as const;

/** What the conditions read of a member (services/members.ts `MemberInfo` is one). */
export interface ObservedMember {
  record: Pick<MemberRecord, "name" | "evacuated" | "lastHeartbeat" | "inventories" | "resources" | "state">;
  status: string;
  usage: { used: Record<string, number> };
}

const memberUrl = (name: string) => `/1.0/cluster/members/${name}`;

/**
 * The derived conditions holding now. `evacuatedSince` says since when each
 * member has been seen evacuated (the caller keeps it: a record holds no
 * evacuation time); `evacuatedWarningAfterMs` is how long an evacuation
 * may last before it is warned about (0: never). `rootPools` are the pools
 * DISK_GB is derived from (the profiles' root disk pools; empty: LXD's
 * default pool).
 */
export function memberConditions(
  members: readonly ObservedMember[],
  now: Date,
  evacuatedSince: ReadonlyMap<string, Date>,
  evacuatedWarningAfterMs: number,
  rootPools: readonly string[] = [],
): WarningCondition[] {
  const holding: WarningCondition[] = [];
  for (const member of members) {
    const name = member.record.name;
    const about = { location: name, project: "", entityUrl: memberUrl(name) };
    if (member.status === "Offline") {
      const last = member.record.lastHeartbeat;
      holding.push({
        ...about,
        type: WARNING_TYPES.offline,
        severity: "high",
        message: `Member "${name}" is offline: ${last === null ? "it never sent a heartbeat" : `its last heartbeat was at ${last}`}`,
      });
    }
    const since = evacuatedSince.get(name);
    if (
      member.record.evacuated &&
      since !== undefined &&
      evacuatedWarningAfterMs > 0 &&
      now.getTime() - since.getTime() > evacuatedWarningAfterMs
    ) {
      holding.push({
        ...about,
        type: WARNING_TYPES.evacuated,
        severity: "low",
        message: `Member "${name}" has been evacuated since ${since.toISOString()}`,
      });
    }
    for (const [resourceClass, inventory] of Object.entries(member.record.inventories)) {
      const used = member.usage.used[resourceClass] ?? 0;
      const capacity = inventoryCapacity(inventory);
      if (used <= capacity) continue;
      holding.push({
        ...about,
        entityUrl: `${memberUrl(name)}/inventories/${resourceClass}`,
        type: WARNING_TYPES.inventoryBelowUsage,
        severity: "moderate",
        message: `Inventory ${resourceClass} of member "${name}" has capacity ${capacity}, below the ${used} its instances use`,
      });
    }
    holding.push(...explicitAboveReported(member.record, about, rootPools));
  }
  return holding;
}

/**
 * Explicit standard inventories whose total exceeds the total the member's
 * reports would derive (Placement would then hand out capacity the member
 * does not have). A smaller explicit total is a deliberate holdback, not a
 * disagreement. The derived totals come from @berth/resources, the one home
 * of that rule; a class the reports say nothing about is not judged.
 */
function explicitAboveReported(
  record: ObservedMember["record"],
  about: Omit<WarningCondition, "type" | "message" | "severity">,
  rootPools: readonly string[],
): WarningCondition[] {
  const derived = deriveMemberInventories(reportedCapacity(record.resources, record.state, rootPools));
  if (!derived.ok) return [];
  const holding: WarningCondition[] = [];
  for (const [resourceClass, inventory] of Object.entries(record.inventories)) {
    const reported = derived.value[resourceClass]?.total;
    if (inventory.source !== "explicit" || reported === undefined || inventory.total <= reported) continue;
    holding.push({
      ...about,
      entityUrl: `${memberUrl(record.name)}/inventories/${resourceClass}`,
      type: WARNING_TYPES.inventoryAboveReported,
      severity: "moderate",
      message: `Inventory ${resourceClass} of member "${record.name}" is set to a total of ${inventory.total}, above the ${reported} the member reports`,
    });
  }
  return holding;
}
