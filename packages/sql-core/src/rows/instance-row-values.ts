import type { InstanceRecord } from "@berth/engine";

/*
 * The rows a claim writes for an instance, in the column order both
 * adapters' statements list (SQLite binds them value by value, PostgreSQL
 * reads them from one JSON parameter).
 */

export const INSTANCE_COLUMNS = [
  "id",
  "project",
  "name",
  "type",
  "member_id",
  "forthcoming",
  "architecture",
  "description",
  "ephemeral",
  "profiles",
  "config",
  "devices",
  "instance_type",
  "flavor",
  "source",
  "placement_group",
  "origin",
  "created_at",
  "limits_cpu",
  "limits_memory_bytes",
  "limits_disk_bytes",
  "decision",
  "revision",
  "secondary_id",
] as const;

/**
 * An instance's row in INSTANCE_COLUMNS order. JSON columns go through
 * `json` (SQLite binds text; PostgreSQL embeds the value in its JSON
 * parameter); a null JSON column stays null.
 */
export function instanceRowValues(
  record: InstanceRecord,
  memberIds: ReadonlyMap<string, number>,
  json: (value: object) => unknown,
): unknown[] {
  const nullable = (value: object | null) => (value === null ? null : json(value));
  return [
    record.id,
    record.project,
    record.name,
    record.type,
    memberIds.get(record.location)!,
    record.forthcoming,
    record.architecture,
    record.description,
    record.ephemeral,
    json(record.profiles),
    json(record.config),
    json(record.devices),
    record.instanceType,
    record.flavor,
    nullable(record.source),
    record.placementGroup,
    record.origin,
    record.createdAt,
    record.limitsUsage.cpu,
    record.limitsUsage.memoryBytes,
    record.limitsUsage.diskBytes,
    nullable(record.decision),
    record.revision,
    record.secondary === undefined ? null : memberIds.get(record.secondary)!,
  ];
}

/** [instance id, member id, class, ledger, amount, position]: one row of table `allocations`. */
export type AllocationRowValues = [string, number, string, string, number, number];

/**
 * An instance's `allocations` rows: one per (member, class, ledger),
 * repeated rows of the record summed, each with its place in the record's
 * list (what keeps the order when the record is read back).
 */
export function mergedAllocationRows(
  record: InstanceRecord,
  memberIds: ReadonlyMap<string, number>,
): AllocationRowValues[] {
  // A record holds a handful of rows: a linear search for the same
  // (member, class, ledger) costs less than a Map and its string keys.
  const merged: AllocationRowValues[] = [];
  for (const row of record.allocations) {
    const memberId = memberIds.get(row.member);
    // Only zero-amount rows can name a member that is gone (the claim
    // rules refused the rest); there is nothing to record for them.
    if (memberId === undefined) continue;
    const existing = merged.find(
      (m) => m[1] === memberId && m[2] === row.resourceClass && m[3] === row.ledger,
    );
    if (existing !== undefined) existing[4] += row.amount;
    else merged.push([record.id, memberId, row.resourceClass, row.ledger, row.amount, merged.length]);
  }
  return merged;
}
