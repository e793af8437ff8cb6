import type { Flavor } from "./flavor.js";
import {
  type ExpandedInstance,
  findRootDiskDevice,
  type InstanceConfig,
  type InstanceDevice,
  type InstanceDevices,
  type InstanceType,
} from "./instance.js";
import {
  computeInstanceResources,
  type InstanceResources,
  type InstanceResourcesError,
  type InstanceResourcesOptions,
} from "./instance-resources.js";
import { type InstanceTypeError, parseInstanceType } from "./instance-type.js";
import { buildRequest, type ResourceRequest, type ResourceRequestError } from "./resource-request.js";
import { err, ok, type Result } from "./result.js";
import { bytesToGibibytesCeil, bytesToMebibytesCeil } from "./sizes.js";

/** An instance as the engine has it after profile expansion, before sizing defaults. */
export interface InstanceRequestInput {
  readonly type: InstanceType;
  readonly config: InstanceConfig;
  readonly devices: InstanceDevices;
  /** LXD instance type such as `c2-m4`. */
  readonly instance_type?: string;
  /** The stored flavor the instance names, already looked up. */
  readonly flavor?: Flavor;
}

export type InstanceRequestError = InstanceTypeError | InstanceResourcesError | ResourceRequestError;

export interface InstanceRequest {
  /** Config and devices with the instance type and flavor applied. */
  readonly expanded: ExpandedInstance;
  /** LXD's three numbers plus the final per-class amounts. */
  readonly instance_resources: InstanceResources;
  readonly request: ResourceRequest;
}

function isUnset(value: string | undefined): boolean {
  return value === undefined || value === "";
}

/**
 * Applies the sizing an instance names to its expanded config and devices,
 * filling only what is unset (the instance's own values always win, as in
 * LXD where the instance type never overrides an explicit limit):
 * first the instance type (`limits.cpu`, `limits.cpu.allowance`,
 * `limits.memory`), then the flavor (`limits.cpu = vcpus`,
 * `limits.memory = <memory_mb>MiB`, root disk `size = <disk_gb>GiB` when
 * disk_gb > 0 and a root disk device exists). The inputs are not modified.
 */
export function applyInstanceSizing(
  input: InstanceRequestInput,
): Result<ExpandedInstance, InstanceTypeError> {
  const config: Record<string, string> = { ...input.config };
  if (input.instance_type !== undefined && input.instance_type !== "") {
    const limits = parseInstanceType(input.instance_type);
    if (!limits.ok) return limits;
    for (const [key, value] of Object.entries(limits.value)) {
      if (isUnset(config[key])) config[key] = value;
    }
  }
  let devices = input.devices;
  const flavor = input.flavor;
  if (flavor !== undefined) {
    if (isUnset(config["limits.cpu"])) config["limits.cpu"] = String(flavor.vcpus);
    if (isUnset(config["limits.memory"])) config["limits.memory"] = `${flavor.memory_mb}MiB`;
    const rootName = findRootDiskDevice(devices);
    if (rootName !== undefined && flavor.disk_gb > 0) {
      const root = devices[rootName] as InstanceDevice;
      if (isUnset(root.size)) devices = { ...devices, [rootName]: { ...root, size: `${flavor.disk_gb}GiB` } };
    }
  }
  return ok({ type: input.type, config, devices });
}

/**
 * Everything an instance asks for, in Nova's order: sizing applied
 * (applyInstanceSizing), InstanceResources computed as LXD does, base
 * amounts VCPU = cpu_cores, MEMORY_MB = ceil(memory / MiB),
 * DISK_GB = ceil(root disk / GiB) (the flavor's disk_gb when there is no
 * root disk to size: Nova always counts root_gb), then the flavor's extra specs
 * (see buildRequest).
 */
export function buildInstanceRequest(
  input: InstanceRequestInput,
  options: InstanceResourcesOptions = {},
): Result<InstanceRequest, InstanceRequestError> {
  const expanded = applyInstanceSizing(input);
  if (!expanded.ok) return expanded;
  const computed = computeInstanceResources(expanded.value, options);
  if (!computed.ok) return computed;
  const lxd = computed.value;
  const request = buildRequest(
    {
      VCPU: lxd.cpu_cores,
      MEMORY_MB: bytesToMebibytesCeil(lxd.memory_size),
      // Nova always counts a flavor's disk: without a root disk device to size, its disk_gb itself.
      DISK_GB:
        lxd.root_disk_size > 0 ? bytesToGibibytesCeil(lxd.root_disk_size) : (input.flavor?.disk_gb ?? 0),
    },
    input.flavor?.extra_specs ?? {},
  );
  if (!request.ok) return err(request.error);
  return ok({
    expanded: expanded.value,
    instance_resources: { ...lxd, resource_classes: request.value.resources },
    request: request.value,
  });
}
