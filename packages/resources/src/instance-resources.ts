import { type CpuLimitError, parseCpuLimit } from "./cpu.js";
import { type ExpandedInstance, findRootDiskDevice, type InstanceDevice } from "./instance.js";
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
}

export type InstanceResourcesField = "limits.cpu" | "limits.memory" | "root disk size";

export interface InstanceResourcesError {
  readonly kind: "instance-resources";
  readonly field: InstanceResourcesField;
  readonly cause: CpuLimitError | SizeError;
  readonly message: string;
}

function failure(
  field: InstanceResourcesField,
  cause: CpuLimitError | SizeError,
  dialect: "lxd" | "incus",
): Result<LxdInstanceResources, InstanceResourcesError> {
  const lxd = `Failed parsing instance resources ${field}: ${cause.message}`;
  const message = dialect === "incus" ? `Failed to calculate instance resource usage: ${lxd}` : lxd;
  return err({ kind: "instance-resources", field, cause, message });
}

/**
 * Computes InstanceResources exactly as LXD's `get_instance_resources()`:
 * - `cpu_cores` from `limits.cpu` (a count, or a cpuset counted); a VM
 *   without it gets 1, a container 0;
 * - `memory_size` from `limits.memory` (an LXD size; percentages are
 *   errors); a VM without it gets 1GiB, a container 0;
 * - `root_disk_size` from the `size` of the root disk device; a VM whose
 *   root disk has no size gets 10GiB; no (or an ambiguous) root disk is 0.
 * The type `""` (Incus relocation) gets no VM defaults.
 */
export function computeInstanceResources(
  instance: ExpandedInstance,
  options: InstanceResourcesOptions = {},
): Result<LxdInstanceResources, InstanceResourcesError> {
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

  let memorySize = 0;
  let memoryLimit = instance.config["limits.memory"] ?? "";
  if (isVm && memoryLimit === "") memoryLimit = defaults.memory;
  if (memoryLimit !== "") {
    const parsed = parseByteSize(memoryLimit);
    if (!parsed.ok) return failure("limits.memory", parsed.error, dialect);
    memorySize = parsed.value;
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

  return ok({ cpu_cores: cpuCores, memory_size: memorySize, root_disk_size: rootDiskSize });
}
