import type { Instance } from "@berth/api-types";
import { type InstanceExpansion, type InstanceRecord, instanceConfig, instanceView } from "@berth/engine";

/**
 * Engine instance record -> LXD `Instance` (plus Berth's uuid, flavor,
 * forthcoming). `expanded` is its expanded config and devices, computed by
 * the engine (a placement's outcome, or `engine.expandedInstance`).
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
    config: instanceConfig(record),
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
