/**
 * Copies of stored records, so callers never share mutable state with the
 * in-memory store. Hand-written because Node's structuredClone costs tens of
 * microseconds per small object, which dominated bulk claims.
 */
import type { InstanceRecord, MemberRecord } from "./records.js";

type Devices = Record<string, Record<string, string>>;

export function cloneDevices(devices: Readonly<Record<string, Readonly<Record<string, string>>>>): Devices {
  const out: Devices = {};
  for (const name in devices) out[name] = { ...devices[name] };
  return out;
}

/** A deep copy of plain JSON data (records' free-form parts: source, state, resources). */
export function cloneJson<T>(value: T): T {
  return value === null || value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export function cloneInstance<T extends Omit<InstanceRecord, "revision">>(record: T): T {
  return {
    ...record,
    profiles: [...record.profiles],
    config: { ...record.config },
    devices: cloneDevices(record.devices),
    source: record.source === null ? null : cloneJson(record.source),
    allocations: record.allocations.map((row) => ({ ...row })),
    limitsUsage: { ...record.limitsUsage },
  };
}

export function cloneMember(record: MemberRecord): MemberRecord {
  const inventories: MemberRecord["inventories"] = {};
  for (const resourceClass in record.inventories)
    inventories[resourceClass] = { ...record.inventories[resourceClass]! };
  return {
    ...record,
    roles: [...record.roles],
    groups: [...record.groups],
    config: { ...record.config },
    traits: [...record.traits],
    state: cloneJson(record.state),
    resources: cloneJson(record.resources),
    inventories,
  };
}
