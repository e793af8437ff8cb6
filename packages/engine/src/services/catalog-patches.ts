/**
 * What PUT and PATCH of a catalog record mean, in one place for every
 * protocol (LXD semantics): PUT replaces the editable fields; PATCH changes
 * only the fields it names, merges config-like maps key by key (`""`
 * removes a key from instance/project config), and replaces a named device
 * whole while keeping the others.
 */
import {
  checkedSettings,
  type PlacementGroupSettingsInput,
  placementGroupConfigOf,
  placementGroupSettingsOf,
  withLegacyFields,
} from "../rules/writes/placement-group-config.js";
import type {
  FlavorRecord,
  ImageRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
} from "../store/records.js";

/** A profile's editable fields: what a PUT replaces. */
export interface ProfileFields {
  /** Free text. */
  description: string;
  /** Instance config keys it sets. */
  config: Record<string, string>;
  /** Devices it adds, by name. */
  devices: Record<string, Record<string, string>>;
}
/**
 * A PATCH of a profile: only the fields given change (config merged key by key, devices by name).
 */
export type ProfileChanges = Partial<ProfileFields>;

/** A project's editable fields: what a PUT replaces. */
export interface ProjectFields {
  /** Free text. */
  description: string;
  /** Its config (`limits.*`, `restricted.*`, `features.*`). */
  config: Record<string, string>;
}
/** A PATCH of a project: only the fields given change (config merged key by key). */
export type ProjectChanges = Partial<ProjectFields>;

/** An image's editable fields: what a PUT replaces. */
export interface ImageFields {
  /** Free text. */
  description: string;
  /** LXD image properties. */
  properties: Record<string, string>;
}
/** A PATCH of an image: only the fields given change (properties merged key by key). */
export type ImageChanges = Partial<ImageFields>;

/** A placement group's editable fields: LXD's `config` map, or Berth's earlier top-level `policy`/`rigor`. */
export interface PlacementGroupFields extends PlacementGroupSettingsInput {
  /** The group's free-text description; absent on a PATCH leaves it as it is. */
  description?: string;
}
/** A PATCH of a placement group: only the fields given change (config merged key by key). */
export type PlacementGroupChanges = PlacementGroupFields;

/** A flavor as callers give it: the size fields are checked when the record is built. */
export interface FlavorInput {
  /** The flavor's name, as instances name it (`flavor` of a create body). */
  name: string;
  /** Free text; absent: empty. */
  description?: string;
  /** CPUs an instance of the flavor gets (a positive integer; checked when the record is built). */
  vcpus: unknown;
  /** Memory an instance of the flavor gets, in MiB (a positive integer). */
  memory_mb: unknown;
  /** Root disk size, in GiB (a non-negative integer); absent: Nova's default. */
  disk_gb?: unknown;
  /** Nova-style extra specs (`resources:CLASS`, `trait:NAME`, ...), values as strings. */
  extra_specs?: Record<string, unknown>;
}

/** A flavor's editable fields (Nova's names): what a PUT replaces. */
export type FlavorFields = Omit<FlavorInput, "name">;
/** A PATCH of a flavor: sizes given replace, extra specs merge key by key. */
export type FlavorChanges = Partial<FlavorFields>;

/** Config keys merged one by one; `""` removes the key (LXD: an empty value unsets). */
export function mergeConfig(
  current: Readonly<Record<string, string>>,
  changes: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === "") delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** Devices merged by name: a named device is replaced whole, the others stay. */
export function mergeDevices(
  current: Readonly<Record<string, Record<string, string>>>,
  changes: Readonly<Record<string, Record<string, string>>> | undefined,
): Record<string, Record<string, string>> {
  return { ...current, ...(changes ?? {}) };
}

/**
 * The profile after a PATCH: description replaced when given, config merged key by key (`""`
 * removes), devices replaced by name.
 */
export function patchedProfile(current: ProfileRecord, changes: ProfileChanges): ProfileRecord {
  return {
    ...current,
    description: changes.description ?? current.description,
    config: mergeConfig(current.config, changes.config),
    devices: mergeDevices(current.devices, changes.devices),
  };
}

/**
 * The project after a PATCH: description replaced when given, config merged key by key (`""`
 * removes).
 */
export function patchedProject(current: ProjectRecord, changes: ProjectChanges): ProjectRecord {
  return {
    ...current,
    description: changes.description ?? current.description,
    config: mergeConfig(current.config, changes.config),
  };
}

/** Image properties merge key by key (LXD keeps properties it was not sent). */
export function patchedImage(current: ImageRecord, changes: ImageChanges): ImageRecord {
  return {
    ...current,
    description: changes.description ?? current.description,
    properties: { ...current.properties, ...(changes.properties ?? {}) },
  };
}

/** PUT (LXD): the description and the whole config replaced (a missing description is ""). */
export function replacedPlacementGroup(
  current: PlacementGroupRecord,
  fields: PlacementGroupFields,
): PlacementGroupRecord {
  const config = withLegacyFields(fields.config ?? {}, fields);
  return { ...current, description: fields.description ?? "", ...checkedSettings(config) };
}

/** PATCH (LXD): the description if given, config merged key by key (`""` unsets), then checked whole. */
export function patchedPlacementGroup(
  current: PlacementGroupRecord,
  changes: PlacementGroupChanges,
): PlacementGroupRecord {
  const merged = mergeConfig(placementGroupConfigOf(current), changes.config);
  return {
    ...current,
    description: changes.description ?? current.description,
    ...checkedSettings(withLegacyFields(merged, changes)),
  };
}

/** A new group's record from a create body (either format). */
export function newPlacementGroup(
  input: PlacementGroupFields & { project: string; name: string },
): PlacementGroupRecord {
  return {
    project: input.project,
    name: input.name,
    description: input.description ?? "",
    ...placementGroupSettingsOf(input),
  };
}

/** A stored flavor as the input its validation takes (Nova field names). */
export function flavorInputOf(flavor: FlavorRecord): FlavorInput {
  return {
    name: flavor.name,
    description: flavor.description,
    vcpus: flavor.vcpus,
    memory_mb: flavor.memoryMb,
    disk_gb: flavor.diskGb,
    extra_specs: { ...flavor.extraSpecs },
  };
}

/** Sizes replace; extra specs merge key by key (Nova's flavor extra-spec updates add or change keys). */
export function patchedFlavor(current: FlavorRecord, changes: FlavorChanges): FlavorInput {
  const base = flavorInputOf(current);
  return {
    ...base,
    ...changes,
    extra_specs: { ...base.extra_specs, ...(changes.extra_specs ?? {}) },
  };
}
