import type { InstanceRecord, NewInstance } from "@berth/engine";

/**
 * The record a claim stores and returns: a deep copy of what the caller
 * gave (so neither side can change the other's), with its new revision.
 * Copied field by field: structuredClone took about 35 µs per record, a
 * third of a second for a 10,000-instance bulk claim. `source` is free-form
 * JSON and takes the JSON round trip; everything else has a known shape.
 */
export function storedRecord(record: NewInstance, revision: number): InstanceRecord {
  const allocations = new Array<InstanceRecord["allocations"][number]>(record.allocations.length);
  for (let index = 0; index < allocations.length; index++) {
    const row = record.allocations[index]!;
    allocations[index] = {
      member: row.member,
      resourceClass: row.resourceClass,
      ledger: row.ledger,
      amount: row.amount,
    };
  }
  const devices: InstanceRecord["devices"] = {};
  for (const name in record.devices) devices[name] = { ...record.devices[name] };
  return {
    id: record.id,
    project: record.project,
    name: record.name,
    type: record.type,
    location: record.location,
    forthcoming: record.forthcoming,
    architecture: record.architecture,
    description: record.description,
    ephemeral: record.ephemeral,
    profiles: [...record.profiles],
    config: { ...record.config },
    devices,
    instanceType: record.instanceType,
    flavor: record.flavor,
    source:
      record.source === null ? null : (JSON.parse(JSON.stringify(record.source)) as Record<string, unknown>),
    placementGroup: record.placementGroup,
    origin: record.origin,
    createdAt: record.createdAt,
    allocations,
    limitsUsage: {
      cpu: record.limitsUsage.cpu,
      memoryBytes: record.limitsUsage.memoryBytes,
      diskBytes: record.limitsUsage.diskBytes,
    },
    revision,
  };
}
