/**
 * Whether one member can take an instance as its primary or as its
 * secondary, as Ganeti's allocator checks it: memory, disk, spindles,
 * virtual CPUs, exclusion tags, and the memory a secondary keeps free to
 * take over its primary's instances (N+1). Each answers the first failure.
 */
import type { SnapshotGroup, SnapshotNode } from "./cluster.js";
import { diskSpindles, diskTotal, type FailMode, type InstanceSpec, usesLocalStorage } from "./spec.js";

/** Spindle needs checked on one node: physical volumes with exclusive storage, else the spindle ratio. */
function spindleFailure(node: SnapshotNode, spec: InstanceSpec, group: SnapshotGroup): FailMode | undefined {
  if (node.input.exclusiveStorage) {
    const spindles = diskSpindles(spec);
    if (spindles === undefined || node.freeSpindles - spindles < 0) return "FailSpindles";
    return undefined;
  }
  const limit = group.policy.spindleRatio * node.input.spindleCount;
  if (node.spindleUse + spec.spindleUse > limit) return "FailDisk";
  return undefined;
}

function diskFailure(node: SnapshotNode, spec: InstanceSpec): FailMode | undefined {
  if (!usesLocalStorage(spec.template)) return undefined;
  const disk = diskTotal(spec);
  return disk > 0 && node.freeDisk - disk <= 0 ? "FailDisk" : undefined;
}

/** Why `node` cannot be the instance's primary, or undefined. */
export function primaryFailure(
  node: SnapshotNode,
  spec: InstanceSpec,
  group: SnapshotGroup,
  exclusionTags: readonly string[],
): FailMode | undefined {
  const freeAfter = node.freeMemory - spec.memory;
  if (freeAfter <= 0) return "FailMem";
  // The node must still be able to take over the largest primary it is secondary for.
  if (freeAfter < node.reservedMemory) return "FailMem";
  const disk = diskFailure(node, spec);
  if (disk !== undefined) return disk;
  const spindles = spindleFailure(node, spec, group);
  if (spindles !== undefined) return spindles;
  if (node.usedCpus + spec.vcpus > group.policy.vcpuRatio * node.effectiveCpus) return "FailCPU";
  for (const tag of exclusionTags) if (node.exclusionTags.has(tag)) return "FailTags";
  return undefined;
}

/**
 * Why `node` cannot be the secondary of a mirrored instance whose primary
 * is `primary`, or undefined: it holds a copy of the disks and must keep
 * enough memory free to run every instance of that primary it mirrors.
 */
export function secondaryFailure(
  node: SnapshotNode,
  primary: string,
  spec: InstanceSpec,
  group: SnapshotGroup,
): FailMode | undefined {
  const disk = diskFailure(node, spec);
  if (disk !== undefined) return disk;
  const spindles = spindleFailure(node, spec, group);
  if (spindles !== undefined) return spindles;
  if (node.peerMemory(primary) + spec.memory > node.freeMemory) return "FailMem";
  return undefined;
}
