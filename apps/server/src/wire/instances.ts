import type { Instance } from "@berth/api-types";
import {
  type InstanceExpansion,
  type InstanceRecord,
  instanceConfig,
  instanceView,
  resourcesOf,
} from "@berth/engine";
import { copyDevices } from "./devices.js";

/**
 * Engine instance record -> LXD `Instance` (plus Berth's uuid, flavor,
 * forthcoming, resources). `expanded` is its expanded config and devices, computed by
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
    devices: copyDevices(record.devices),
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
    resources: resourcesOf(record),
  };
}

/**
 * LXD `InstanceState` for a placed instance: Berth places instances and does
 * not run them, so there are no processes, no usage and no network state;
 * the status is the placement status (Placed, Reserved).
 */
export function instanceStateToWire(record: InstanceRecord) {
  const view = instanceView(record);
  return {
    status: view.status ?? "",
    status_code: view.status_code ?? 0,
    disk: {},
    memory: { usage: 0, usage_peak: 0, swap_usage: 0, swap_usage_peak: 0 },
    network: {},
    pid: 0,
    processes: 0,
    cpu: { usage: 0 },
  };
}

/** LXD `InstanceFull` (`?recursion=2` lists, `?recursion=1` on one instance): the instance with its state. */
export function instanceFullToWire(record: InstanceRecord, expanded: InstanceExpansion) {
  return {
    ...instanceToWire(record, expanded),
    state: instanceStateToWire(record),
    snapshots: [],
    backups: [],
  };
}
