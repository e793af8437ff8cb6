/**
 * Plain-JS views with LXD JSON field names, handed to the scriptlet and
 * returned by the API: members, instances, the placement request.
 */

import { deepFreeze } from "../base/deep-freeze.js";
import type { PlacementRequest } from "../expand/request.js";
import type { MemberState } from "../model/member-state.js";
import type {
  ClusterMemberView,
  InstancePlacementView,
  InstanceSourceView,
  InstanceView,
} from "../scriptlet/port.js";
import { cloneDevices, cloneJson } from "../store/clone.js";
import type { InstanceRecord } from "../store/records.js";

/** A member's status as LXD shows it. */
export type MemberStatus = "Online" | "Offline" | "Evacuated";

/**
 * Offline when it has not heartbeat within the threshold (whatever else), else Evacuated when
 * evacuated, else Online.
 */
export function memberStatus(member: MemberState, nowMs: number, offlineThresholdMs: number): MemberStatus {
  // As in LXD, a silent member shows Offline whatever its maintenance state (a healed member included).
  if (!member.isOnline(nowMs, offlineThresholdMs)) return "Offline";
  return member.evacuated ? "Evacuated" : "Online";
}

const STATUS_MESSAGES: Record<MemberStatus, string> = {
  Online: "Fully operational",
  Offline: "No heartbeat within cluster.offline_threshold",
  Evacuated: "Unavailable due to maintenance",
};

/**
 * The member as the scriptlet sees it. Built once per (record, status) and
 * kept on the member, frozen: a scriptlet run over 10,000 candidates then
 * hands over existing objects instead of building 10,000 views (and their
 * arrays and config copies) per placement. The record is replaced, never
 * mutated, on every change, so its identity says when to rebuild.
 */
export function memberView(
  member: MemberState,
  nowMs: number,
  offlineThresholdMs: number,
): ClusterMemberView {
  const status = memberStatus(member, nowMs, offlineThresholdMs);
  const cached = member.view;
  if (cached !== null && member.viewRecord === member.record && member.viewStatus === status) return cached;
  const view = buildMemberView(member, status);
  member.view = view;
  member.viewRecord = member.record;
  member.viewStatus = status;
  return view;
}

function buildMemberView(member: MemberState, status: MemberStatus): ClusterMemberView {
  const record = member.record;
  return deepFreeze({
    // The model's key string itself, so name lookups from the scriptlet compare pointers.
    server_name: member.name,
    url: record.url,
    database: record.roles.includes("database"),
    status,
    message: STATUS_MESSAGES[status],
    architecture: record.architecture,
    roles: [...record.roles],
    failure_domain: record.failureDomain,
    description: record.description,
    config: { ...record.config },
    groups: [...record.groups],
  });
}

/**
 * The `request` object of the scriptlet: the expanded create body + reason
 * + project. Every field of LXD's struct is present, with Go's zero value
 * when Berth has nothing for it. `withSource: false` shows an empty
 * `source` (rebalance moves, as LXD shows evacuations).
 */
export function placementView(request: PlacementRequest, withSource = true): InstancePlacementView {
  const view: InstancePlacementView = {
    name: request.name,
    reason: request.reason,
    project: request.projectName,
    type: request.type,
    architecture: request.architecture,
    config: { ...request.expandedConfig },
    devices: cloneDevices(request.expandedDevices),
    profiles: [...request.profiles],
    instance_type: request.instanceType ?? "",
    description: request.description,
    ephemeral: request.ephemeral,
    // Go's zero values for what Berth does not keep: LXD's request is a struct, every field is there.
    stateful: false,
    restore: "",
    start: false,
    disk_only: false,
    source: sourceView(withSource ? request.source : null),
  };
  return view;
}

/** `InstanceSource` with every field present (Go's zero values), the client's fields on top. */
function sourceView(source: Record<string, unknown> | null): InstanceSourceView {
  return {
    type: "",
    certificate: "",
    alias: "",
    fingerprint: "",
    properties: {},
    server: "",
    secret: "",
    protocol: "",
    "base-image": "",
    mode: "",
    operation: "",
    secrets: {},
    source: "",
    live: false,
    instance_only: false,
    refresh: false,
    refresh_exclude_older: false,
    project: "",
    allow_inconsistent: false,
    ...(source === null ? {} : (cloneJson(source) as InstanceSourceView)),
  };
}

export function instanceStatus(record: InstanceRecord): { status: string; code: number } {
  // Berth records placements; it does not run instances. Reservations are "Reserved".
  return record.forthcoming ? { status: "Reserved", code: 112 } : { status: "Stopped", code: 102 };
}

/**
 * An instance's own config as LXD shows it: an evacuated instance carries
 * `volatile.evacuate.origin`, a two-member one the member mirroring it in
 * `volatile.cluster.secondary` (LXD has no field for it; read-only, like
 * every `volatile.` key).
 */
export function instanceConfig(record: InstanceRecord): Record<string, string> {
  const config = { ...record.config };
  if (record.origin !== null) config["volatile.evacuate.origin"] = record.origin;
  if (record.secondary !== undefined) config["volatile.cluster.secondary"] = record.secondary;
  return config;
}

/**
 * The instance as `get_instances()` shows it; `expansion` (its profiles,
 * instance type and flavor sizing) gives `expanded_config`/`expanded_devices`.
 */
export function instanceView(
  record: InstanceRecord,
  expansion?: { config: Record<string, string>; devices: Record<string, Record<string, string>> },
): InstanceView {
  const { status, code } = instanceStatus(record);
  return {
    name: record.name,
    project: record.project,
    location: record.location,
    type: record.type,
    architecture: record.architecture,
    description: record.description,
    config: instanceConfig(record),
    devices: cloneDevices(record.devices),
    ...(expansion !== undefined
      ? { expanded_config: { ...expansion.config }, expanded_devices: cloneDevices(expansion.devices) }
      : {}),
    profiles: [...record.profiles],
    ephemeral: record.ephemeral,
    stateful: false,
    status,
    status_code: code,
    created_at: record.createdAt,
    last_used_at: "1970-01-01T00:00:00Z",
  };
}
