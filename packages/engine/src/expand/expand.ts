/**
 * Step 2 of a placement: expand the create body into everything the
 * pipeline needs. Profiles are merged (config/devices, in profile order,
 * instance values on top), the instance type and flavor size it, LXD's
 * InstanceResources and the Nova-style resource request are computed by
 * @berth/resources, and the architectures the instance can run on are
 * resolved from its image.
 */
import type { InstancesPost } from "@berth/api-types";
import {
  buildInstanceRequest,
  type Flavor,
  type InstanceResources,
  instanceConfigProblem,
  type MemoryShare,
} from "@berth/resources";
import { invalid, isEngineError, notFound } from "../base/errors.js";
import { cloneDevices } from "../store/clone.js";
import type {
  FlavorRecord,
  ImageRecord,
  InstanceType,
  LimitsUsage,
  ProfileRecord,
} from "../store/records.js";

export interface ExpandedRequest {
  name: string;
  type: InstanceType;
  /** The instance's own config/devices (what is stored). */
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
  /** Profiles applied and sizing filled in (what the scriptlet and resources see). */
  expandedConfig: Record<string, string>;
  expandedDevices: Record<string, Record<string, string>>;
  profiles: string[];
  flavor: string | null;
  instanceType: string | null;
  /**
   * Per-class amounts the instance asks for (zeros dropped). With a
   * requested `memoryShare` it holds no MEMORY_MB: the amount depends on
   * the member (expand/member-demand.ts `resourcesOn` adds it).
   */
  resources: Record<string, number>;
  /** `limits.memory` as a percentage of the member's memory, or null (a size). */
  memoryShare: MemoryShare | null;
  requiredTraits: string[];
  forbiddenTraits: string[];
  instanceResources: InstanceResources;
  limitsUsage: LimitsUsage;
  /** Architectures the instance can run on; null: any. */
  architectures: string[] | null;
  placementGroup: string | null;
}

/** Everything expansion reads from the catalog, looked up by the caller. */
export interface ExpansionCatalog {
  profile(name: string): ProfileRecord | undefined;
  flavor(name: string): FlavorRecord | undefined;
  /** A local image by fingerprint or unique prefix; throws LXD's lookup errors (catalog-cache.ts). */
  imageByFingerprint(fingerprint: string): ImageRecord | undefined;
  /** A local image by alias; throws "Image alias not found". */
  imageByAlias(alias: string): ImageRecord | undefined;
  /** Server `images.default_architecture` (or ""). */
  defaultArchitecture: string;
}

export const PLACEMENT_GROUP_KEY = "placement.group";

/**
 * LXD's expansion: profile config and devices in profile order, the
 * instance's own values on top (what `expanded_config`/`expanded_devices`
 * show).
 */
export function mergeProfiles(
  profiles: ProfileRecord[],
  config: Record<string, string>,
  devices: Record<string, Record<string, string>>,
): { config: Record<string, string>; devices: Record<string, Record<string, string>> } {
  const mergedConfig: Record<string, string> = {};
  const mergedDevices: Record<string, Record<string, string>> = {};
  for (const profile of profiles) {
    Object.assign(mergedConfig, profile.config);
    Object.assign(mergedDevices, profile.devices);
  }
  Object.assign(mergedConfig, config);
  Object.assign(mergedDevices, devices);
  return { config: mergedConfig, devices: mergedDevices };
}

/** A stored flavor as @berth/resources sizes instances with it (Nova's field names). */
export function flavorSizing(flavor: FlavorRecord): Flavor {
  return {
    vcpus: flavor.vcpus,
    memory_mb: flavor.memoryMb,
    disk_gb: flavor.diskGb,
    extra_specs: flavor.extraSpecs,
  };
}

function architecturesOf(spec: InstancesPost, catalog: ExpansionCatalog): string[] | null {
  if (spec.architecture !== undefined && spec.architecture !== "") return [spec.architecture];
  const source = spec.source;
  if (source !== undefined && (source.type === undefined || source.type === "image")) {
    // An image on a remote server (`source.server`) is resolved there, as LXD does: Berth's
    // catalog tells its architecture when it knows the image, and is not required to.
    const remote = source.server !== undefined && source.server !== "";
    let image: ImageRecord | undefined;
    try {
      image =
        source.fingerprint !== undefined && source.fingerprint !== ""
          ? catalog.imageByFingerprint(source.fingerprint)
          : source.alias !== undefined && source.alias !== ""
            ? catalog.imageByAlias(source.alias)
            : undefined;
    } catch (error) {
      if (!(remote && isEngineError(error, "not_found"))) throw error;
    }
    if (image !== undefined && image.architecture !== "") return [image.architecture];
  }
  return catalog.defaultArchitecture === "" ? null : [catalog.defaultArchitecture];
}

/** Profiles named by the body; absent means the project's `default` profile if it exists. */
export function profileNamesOf(spec: InstancesPost, hasDefault: boolean): string[] {
  if (spec.profiles !== undefined) return [...spec.profiles];
  return hasDefault ? ["default"] : [];
}

/**
 * Whether expansion checks the config against LXD's key table: always for
 * a body being written (create, update), never for an instance already
 * stored, which keeps holding what it holds even if it was placed before
 * the table refused one of its keys.
 */
export type ConfigCheck = "check" | "trust-stored";

export function expandRequest(
  spec: InstancesPost,
  name: string,
  catalog: ExpansionCatalog,
  configCheck: ConfigCheck = "check",
): ExpandedRequest {
  const profileNames = profileNamesOf(spec, catalog.profile("default") !== undefined);
  const profiles = profileNames.map((profileName) => {
    const profile = catalog.profile(profileName);
    if (profile === undefined) throw notFound(`Profile "${profileName}" not found`);
    return profile;
  });
  const ownConfig = { ...(spec.config ?? {}) };
  const ownDevices = cloneDevices(spec.devices ?? {});
  const merged = mergeProfiles(profiles, ownConfig, ownDevices);
  const type: InstanceType = spec.type === "virtual-machine" ? "virtual-machine" : "container";

  let flavor: FlavorRecord | undefined;
  if (spec.flavor !== undefined && spec.flavor !== "") {
    flavor = catalog.flavor(spec.flavor);
    if (flavor === undefined) throw notFound(`Flavor "${spec.flavor}" not found`);
  }
  if (configCheck === "check") {
    // The expanded config, as LXD validates it: a profile's keys must suit this instance's type too.
    const configProblem = instanceConfigProblem(merged.config, type);
    if (configProblem !== undefined) throw invalid(configProblem);
  }
  const built = buildInstanceRequest({
    type,
    config: merged.config,
    devices: merged.devices,
    ...(spec.instance_type !== undefined && spec.instance_type !== ""
      ? { instance_type: spec.instance_type }
      : {}),
    ...(flavor !== undefined ? { flavor: flavorSizing(flavor) } : {}),
  });
  if (!built.ok) throw invalid(built.error.message);
  const { expanded, instance_resources: instanceResources, request } = built.value;
  const placementGroup = merged.config[PLACEMENT_GROUP_KEY];
  return {
    name,
    type,
    config: ownConfig,
    devices: ownDevices,
    expandedConfig: { ...expanded.config },
    expandedDevices: cloneDevices(expanded.devices),
    profiles: profileNames,
    flavor: flavor?.name ?? null,
    instanceType: spec.instance_type ?? null,
    resources: { ...request.resources },
    memoryShare: built.value.memory_share,
    requiredTraits: [...request.required_traits],
    forbiddenTraits: [...request.forbidden_traits],
    instanceResources,
    limitsUsage: {
      cpu: instanceResources.cpu_cores,
      memoryBytes: instanceResources.memory_size,
      diskBytes: instanceResources.root_disk_size,
    },
    architectures: architecturesOf(spec, catalog),
    placementGroup: placementGroup === undefined || placementGroup === "" ? null : placementGroup,
  };
}
