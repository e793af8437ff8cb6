import type { Instance } from "@berth/api-types";
import { type InstanceExpansion, type InstanceRecord, instanceView, type ProfileRecord } from "@berth/engine";

/** LXD expansion: profiles in order, then the instance's own keys on top. */
export function expandWithProfiles(
  record: InstanceRecord,
  profiles: ReadonlyMap<string, ProfileRecord>,
): InstanceExpansion {
  const config: Record<string, string> = {};
  const devices: Record<string, Record<string, string>> = {};
  for (const name of record.profiles) {
    const profile = profiles.get(name);
    if (!profile) continue;
    Object.assign(config, profile.config);
    Object.assign(devices, structuredClone(profile.devices));
  }
  Object.assign(config, record.config);
  Object.assign(devices, structuredClone(record.devices));
  return { config, devices };
}

/**
 * Engine instance record -> LXD `Instance` (plus Berth's uuid, flavor,
 * forthcoming). `expanded` is its expanded config and devices: from a
 * placement's outcome, or `expandWithProfiles` with the project's profiles.
 * The answer owns `expanded` (it is not copied).
 */
export function instanceToWire(record: InstanceRecord, expanded: InstanceExpansion): Instance {
  const view = instanceView(record);
  return {
    name: record.name,
    uuid: record.id,
    description: record.description,
    type: record.type,
    architecture: record.architecture as Instance["architecture"],
    config: { ...record.config },
    devices: structuredClone(record.devices),
    expanded_config: expanded.config,
    expanded_devices: expanded.devices,
    profiles: [...record.profiles],
    ephemeral: record.ephemeral,
    stateful: false,
    status: view.status ?? "",
    status_code: view.status_code ?? 0,
    location: record.location,
    project: record.project,
    created_at: record.createdAt,
    last_used_at: view.last_used_at ?? "1970-01-01T00:00:00Z",
    flavor: record.flavor ?? "",
    forthcoming: record.forthcoming,
  };
}
