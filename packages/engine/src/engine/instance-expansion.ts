/**
 * LXD's `expanded_config` / `expanded_devices` of a stored instance: its
 * profiles' config and devices in profile order, its own values on top.
 * Placements keep the profiles' part (`ExpandedRequest.profileLayer`), so an
 * API answering a create need not read the profiles a second time.
 */
import { mergeProfiles } from "../expand/expand.js";
import { cloneDevices } from "../store/clone.js";
import type { InstanceRecord, ProfileRecord } from "../store/records.js";

export interface InstanceExpansion {
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
}

/** The record's own config and devices over an already merged profile layer (both left untouched). */
export function expansionOver(
  layer: Readonly<InstanceExpansion>,
  record: Pick<InstanceRecord, "config" | "devices">,
): InstanceExpansion {
  // Object.assign keeps a key's first position, as LXD's in-order merge of maps does.
  const config = Object.assign({}, layer.config, record.config);
  const devices = cloneDevices(Object.assign({}, layer.devices, record.devices));
  return { config, devices };
}

/** `profiles` by name; profiles the record names but that no longer exist contribute nothing. */
export function expansionOf(
  record: InstanceRecord,
  profiles: ReadonlyMap<string, ProfileRecord>,
): InstanceExpansion {
  const found: ProfileRecord[] = [];
  for (const name of record.profiles) {
    const profile = profiles.get(name);
    if (profile !== undefined) found.push(profile);
  }
  return expansionOver(mergeProfiles(found, {}, {}), record);
}
