import { type ExtraSpecs, parseExtraSpecs } from "./extra-specs.js";
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
  computeInstanceDemand,
  type InstanceResources,
  type InstanceResourcesError,
  type InstanceResourcesOptions,
  memorySizeOn,
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
  /**
   * LXD's three numbers plus the final per-class amounts. With a memory
   * share, `memory_size` is 0 until a member resolves it (`onMember`).
   */
  readonly instance_resources: InstanceResources;
  /** With a memory share, `resources` holds no `MEMORY_MB` until a member resolves it (`onMember`). */
  readonly request: ResourceRequest;
  /** `limits.memory` as a percentage of the member's memory, or null for a size. */
  readonly memory_share: MemoryShare | null;
}

/** An instance whose `limits.memory` is a share of its member's memory. */
export interface MemoryShare {
  readonly percent: number;
  /**
   * Whether the share is the request's `MEMORY_MB`: false when the
   * flavor's extra specs set (or drop) `MEMORY_MB` themselves, which then
   * wins as for any size.
   */
  readonly requested: boolean;
}

/** What an instance asks of one member: the per-class amounts and LXD's `memory_size` there. */
export interface MemberAmounts {
  readonly resources: Readonly<Record<string, number>>;
  readonly memory_size: number;
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
  const computed = computeInstanceDemand(expanded.value, options);
  if (!computed.ok) return computed;
  const demand = computed.value;
  // A share has no size before a member resolves it: the request leaves MEMORY_MB to onMember.
  const memorySize = memorySizeOn(demand.memory, undefined);
  const lxd = { cpu_cores: demand.cpu_cores, memory_size: memorySize, root_disk_size: demand.root_disk_size };
  const extraSpecs = input.flavor?.extra_specs ?? {};
  const request = buildRequest(
    {
      VCPU: lxd.cpu_cores,
      MEMORY_MB: bytesToMebibytesCeil(lxd.memory_size),
      // Nova always counts a flavor's disk: without a root disk device to size, its disk_gb itself.
      DISK_GB:
        lxd.root_disk_size > 0 ? bytesToGibibytesCeil(lxd.root_disk_size) : (input.flavor?.disk_gb ?? 0),
    },
    extraSpecs,
  );
  if (!request.ok) return err(request.error);
  return ok({
    expanded: expanded.value,
    instance_resources: { ...lxd, resource_classes: request.value.resources },
    request: request.value,
    memory_share:
      demand.memory.kind === "percentage"
        ? { percent: demand.memory.percent, requested: !extraSpecsSetMemory(extraSpecs) }
        : null,
  });
}

/** Does an extra spec (`resources[N]:MEMORY_MB=…`) decide MEMORY_MB, whatever the instance's limit? */
function extraSpecsSetMemory(extraSpecs: ExtraSpecs): boolean {
  for (const group of parseExtraSpecs(extraSpecs).groups.values()) {
    if ("MEMORY_MB" in group.resources) return true;
  }
  return false;
}

/**
 * The one rule that resolves a memory share on a member with
 * `memberMemory` bytes (`memberMemoryBytes`; undefined when it has no
 * memory to speak of): LXD's `memory_size` there, and `resources` with
 * `MEMORY_MB = ceil(memory_size / MiB)` added when the share is the
 * request's. A share is never nothing: at least 1 MiB, so a member
 * without memory turns it down for lacking MEMORY_MB instead of taking it
 * for free. Without a share the amounts are returned as they are (the
 * same object: callers cache by identity).
 */
export function onMember(
  resources: Readonly<Record<string, number>>,
  share: MemoryShare | null,
  memberMemory: number | undefined,
): MemberAmounts {
  if (share === null) return { resources, memory_size: 0 };
  const memorySize = memorySizeOn({ kind: "percentage", percent: share.percent }, memberMemory);
  if (!share.requested) return { resources, memory_size: memorySize };
  const withMemory: Record<string, number> = {};
  const memoryMb = Math.max(1, bytesToMebibytesCeil(memorySize));
  // Keep the classes sorted, as buildRequest leaves them.
  for (const key of Object.keys({ ...resources, MEMORY_MB: 0 }).sort()) {
    withMemory[key] = key === "MEMORY_MB" ? memoryMb : (resources[key] as number);
  }
  return { resources: withMemory, memory_size: memorySize };
}
