/**
 * The warnings Berth derives from its view of the members: a member
 * offline (no heartbeat within `cluster.offline_threshold`), an inventory
 * whose capacity is now below what its member holds (an operator or a
 * report shrank it), a member evacuated for longer than
 * `EVACUATED_WARNING_AFTER_MS`. Scriptlet failures are events, raised
 * where they happen (services/engine.ts).
 */
import { inventoryCapacity } from "@berth/resources";
import type { MemberRecord } from "../store/records.js";
import type { WarningCondition } from "./warning-registry.js";

export const WARNING_TYPES = {
  offline: "Offline cluster member",
  inventoryBelowUsage: "Inventory below usage",
  evacuated: "Cluster member evacuated",
  scriptletLoad: "Placement scriptlet failed to load",
  scriptletRun: "Placement scriptlet failed to run",
} as const;

/** The derived types `memberConditions` answers for (the others are events). */
export const DERIVED_WARNING_TYPES = [
  WARNING_TYPES.offline,
  WARNING_TYPES.inventoryBelowUsage,
  WARNING_TYPES.evacuated,
] as const;

/** An evacuation is maintenance; one that lasts a day has likely been forgotten. */
export const EVACUATED_WARNING_AFTER_MS = 24 * 60 * 60 * 1000;

/** What the conditions read of a member (services/members.ts `MemberInfo` is one). */
export interface ObservedMember {
  record: Pick<MemberRecord, "name" | "evacuated" | "lastHeartbeat" | "inventories">;
  status: string;
  usage: { used: Record<string, number> };
}

const memberUrl = (name: string) => `/1.0/cluster/members/${name}`;

/**
 * The derived conditions holding now. `evacuatedSince` says since when each
 * member has been seen evacuated (the caller keeps it: a record holds no
 * evacuation time).
 */
export function memberConditions(
  members: readonly ObservedMember[],
  now: Date,
  evacuatedSince: ReadonlyMap<string, Date>,
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
      now.getTime() - since.getTime() > EVACUATED_WARNING_AFTER_MS
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
  }
  return holding;
}
