import { type CpuLimitError, parseCpuLimit } from "./cpu.js";
import { type ExpandedInstance, findRootDiskDevice, type InstanceDevice } from "./instance.js";
import {
  type MemoryLimit,
  type MemoryLimitError,
  parseMemoryLimit,
  resolveMemoryPercentage,
} from "./memory-limit.js";
import { err, ok, type Result } from "./result.js";
import { parseByteSize, type SizeError } from "./sizes.js";

/**
 * What the scriptlet's `get_instance_resources()` returns (LXD
 * `api.InstanceResources`): CPUs, memory bytes, root disk bytes.
 */
export interface LxdInstanceResources {
  readonly cpu_cores: number;
  readonly memory_size: number;
  readonly root_disk_size: number;
}

/** Berth's InstanceResources: LXD's three fields plus every class the instance asks for. */
export interface InstanceResources extends LxdInstanceResources {
  readonly resource_classes: Readonly<Record<string, number>>;
}

/** Defaults LXD applies to virtual machines without limits (QEMU defaults, storage default block size). */
export interface VmDefaults {
  readonly cpu_cores: number;
  readonly memory: string;
  /** LXD >= 6.3 asks the root pool's driver (PowerFlex: 8GiB); older LXD and Incus use 10GiB. */
  readonly root_disk_size: string;
}

export const LXD_VM_DEFAULTS: VmDefaults = { cpu_cores: 1, memory: "1GiB", root_disk_size: "10GiB" };

export interface InstanceResourcesOptions {
  /** Whose error texts to produce: LXD's, or Incus's (LXD's wrapped once more). */
  readonly dialect?: "lxd" | "incus";
  readonly vmDefaults?: VmDefaults;
  /**
   * The memory, in bytes, of the member a `limits.memory` percentage is a
   * share of (`memberMemoryBytes`). Without it a percentage is LXD's
   * error (`Invalid value: 50%`): LXD's `get_instance_resources()` has no
   * member to resolve it against.
   */
  readonly memberMemory?: number;
}

/**
 * What an instance asks for before it has a member: LXD's CPU and root
 * disk numbers, and `limits.memory` as written, a size or a share of the
 * member's memory that only a member can resolve (`memorySizeOn`).
 */
export interface InstanceDemand {
  readonly cpu_cores: number;
  readonly memory: MemoryLimit;
  readonly root_disk_size: number;
}

export type InstanceResourcesField = "limits.cpu" | "limits.memory" | "root disk size";

export interface InstanceResourcesError {
  readonly kind: "instance-resources";
  readonly field: InstanceResourcesField;
  readonly cause: CpuLimitError | SizeError | MemoryLimitError;
  readonly message: string;
}

function failure(
  field: InstanceResourcesField,
  cause: CpuLimitError | SizeError | MemoryLimitError,
  dialect: "lxd" | "incus",
): Result<never, InstanceResourcesError> {
  const lxd = `Failed parsing instance resources ${field}: ${cause.message}`;
  const message = dialect === "incus" ? `Failed to calculate instance resource usage: ${lxd}` : lxd;
  return err({ kind: "instance-resources", field, cause, message });
}

/**
 * The one reading of an instance's sizing (its expanded config and
 * devices), before any member:
 * - `cpu_cores` from `limits.cpu` (a count, or a cpuset counted); a VM
 *   without it gets 1, a container 0;
 * - `memory` from `limits.memory`: an LXD size, or a percentage of the
 *   member's memory (`parseMemoryLimit`); a VM without it gets 1GiB, a
 *   container 0;
 * - `root_disk_size` from the `size` of the root disk device; a VM whose
 *   root disk has no size gets 10GiB; no (or an ambiguous) root disk is 0.
 * The type `""` (Incus relocation) gets no VM defaults.
 */
export function computeInstanceDemand(
  instance: ExpandedInstance,
  options: InstanceResourcesOptions = {},
): Result<InstanceDemand, InstanceResourcesError> {
  const dialect = options.dialect ?? "lxd";
  const defaults = options.vmDefaults ?? LXD_VM_DEFAULTS;
  const isVm = instance.type === "virtual-machine";

  let cpuCores = 0;
  const cpuLimit = instance.config["limits.cpu"] ?? "";
  if (cpuLimit !== "") {
    const parsed = parseCpuLimit(cpuLimit);
    if (!parsed.ok) return failure("limits.cpu", parsed.error, dialect);
    cpuCores = parsed.value;
  } else if (isVm) {
    cpuCores = defaults.cpu_cores;
  }

  let memory: MemoryLimit = NO_MEMORY;
  let memoryLimit = instance.config["limits.memory"] ?? "";
  if (isVm && memoryLimit === "") memoryLimit = defaults.memory;
  if (memoryLimit !== "") {
    const parsed = parseMemoryLimit(memoryLimit);
    if (!parsed.ok) return failure("limits.memory", parsed.error, dialect);
    memory = parsed.value;
  }

  let rootDiskSize = 0;
  const rootName = findRootDiskDevice(instance.devices);
  if (rootName !== undefined) {
    const root = instance.devices[rootName] as InstanceDevice;
    let size = root.size ?? "";
    if (isVm && size === "") size = defaults.root_disk_size;
    if (size !== "") {
      const parsed = parseByteSize(size);
      if (!parsed.ok) return failure("root disk size", parsed.error, dialect);
      rootDiskSize = parsed.value;
    }
  }

  return ok({ cpu_cores: cpuCores, memory, root_disk_size: rootDiskSize });
}

const NO_MEMORY: MemoryLimit = { kind: "size", bytes: 0 };

/** The bytes `memory` comes to on a member with `memberMemory` bytes (a share of unknown memory is 0). */
export function memorySizeOn(memory: MemoryLimit, memberMemory: number | undefined): number {
  if (memory.kind === "size") return memory.bytes;
  return memberMemory === undefined ? 0 : resolveMemoryPercentage(memory.percent, memberMemory);
}

/**
 * Computes InstanceResources as LXD's `get_instance_resources()` does
 * (`computeInstanceDemand`, then the memory in bytes). A percentage is
 * resolved against `options.memberMemory`; without one it is LXD's error
 * (`Failed parsing instance resources limits.memory: Invalid value: 50%`).
 */
export function computeInstanceResources(
  instance: ExpandedInstance,
  options: InstanceResourcesOptions = {},
): Result<LxdInstanceResources, InstanceResourcesError> {
  const demand = computeInstanceDemand(instance, options);
  if (!demand.ok) return demand;
  const { cpu_cores, memory, root_disk_size } = demand.value;
  if (memory.kind === "percentage" && options.memberMemory === undefined) {
    // LXD's get_instance_resources() reads limits.memory as a size: "50%" is its parse error.
    const asSize = parseByteSize(instance.config["limits.memory"] ?? "");
    if (!asSize.ok) return failure("limits.memory", asSize.error, options.dialect ?? "lxd");
  }
  return ok({ cpu_cores, memory_size: memorySizeOn(memory, options.memberMemory), root_disk_size });
}
