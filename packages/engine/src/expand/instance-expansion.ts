/**
 * LXD's `expanded_config` / `expanded_devices` of a stored instance: its
 * profiles' config and devices in profile order, its own values on top,
 * then its instance type and flavor sizing. A placement answers with its
 * request's expansion, which is the same, so it reads nothing again.
 */
import { applyInstanceSizing } from "@berth/resources";
import { cloneDevices } from "../store/clone.js";
import type { FlavorRecord, InstanceRecord, ProfileRecord, ProjectRecord } from "../store/records.js";
import type { CatalogCache } from "./catalog-cache.js";
import { flavorSizing, mergeProfiles } from "./expand.js";

/** A stored instance's expansion: what LXD answers as `expanded_config` and `expanded_devices`. */
export interface InstanceExpansion {
  /** LXD `expanded_config`: profiles' config in order, the instance's own on top, then its sizing. */
  config: Record<string, string>;
  /** LXD `expanded_devices`: device name -> device config, profiles' first, the instance's own on top. */
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

/**
 * `profiles` by name; profiles the record names but that no longer exist
 * contribute nothing. Its instance type and `flavor` (the record's, looked
 * up) then fill what is unset, as they did when it was placed
 * (`limits.cpu`, `limits.memory`, the root disk's size).
 */
export function expansionOf(
  record: InstanceRecord,
  profiles: ReadonlyMap<string, ProfileRecord>,
  flavor?: FlavorRecord,
): InstanceExpansion {
  const found: ProfileRecord[] = [];
  for (const name of record.profiles) {
    const profile = profiles.get(name);
    if (profile !== undefined) found.push(profile);
  }
  const merged = expansionOver(mergeProfiles(found, {}, {}), record);
  if (record.instanceType === null && flavor === undefined) return merged;
  const sized = applyInstanceSizing({
    type: record.type,
    config: merged.config,
    devices: merged.devices,
    ...(record.instanceType !== null ? { instance_type: record.instanceType } : {}),
    ...(flavor !== undefined ? { flavor: flavorSizing(flavor) } : {}),
  });
  // A stored instance type was valid when it was placed; should it not parse now, show the unsized expansion.
  return sized.ok ? { config: sized.value.config, devices: cloneDevices(sized.value.devices) } : merged;
}

/**
 * `expansionOf` many records, reading each project, its profiles and each
 * flavor once: what the API shows as `expanded_config`/`expanded_devices`
 * and what a scriptlet's `get_instances()` sees, one rule for both.
 */
export function expandInstances(
  records: readonly InstanceRecord[],
  catalog: CatalogCache,
  projectOf: (name: string) => Promise<ProjectRecord>,
): Promise<InstanceExpansion[]> {
  const projects = new Map<string, Promise<ProjectRecord>>();
  return Promise.all(
    records.map(async (record) => {
      let project = projects.get(record.project);
      if (project === undefined) projects.set(record.project, (project = projectOf(record.project)));
      const flavor = record.flavor === null ? undefined : await catalog.flavor(record.flavor);
      return expansionOf(record, await catalog.profilesOf(await project), flavor);
    }),
  );
}
