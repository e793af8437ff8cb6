/**
 * Instance policies (Ganeti's `ipolicy`): the size bands an instance must
 * fall in, the disk templates a group allows, and the over-commit ratios
 * of virtual CPUs and spindles.
 */
import { diskSpindles, type FailMode, type InstanceSpec } from "./spec.js";

/** One bound of a band; a missing field does not constrain. */
export interface SpecBound {
  /** Memory (MiB). */
  readonly memorySize?: number;
  /** Virtual CPUs. */
  readonly cpuCount?: number;
  /** Each disk's size (MiB). */
  readonly diskSize?: number;
  /** Number of disks. */
  readonly diskCount?: number;
  /** Number of NICs. */
  readonly nicCount?: number;
  /** Spindle use. */
  readonly spindleUse?: number;
}

/** A node group's instance policy (Ganeti's ipolicy). */
export interface InstancePolicy {
  /** Allowed ranges: an instance must fit within one band's min and max. */
  readonly bands: readonly {
    /** The smallest instance the band allows. */
    readonly min: SpecBound;
    /** The largest instance the band allows. */
    readonly max: SpecBound;
  }[];
  /** Empty: every template. */
  readonly diskTemplates: readonly string[];
  /** Virtual CPUs per physical CPU. */
  readonly vcpuRatio: number;
  /** Spindle use per physical spindle (without exclusive storage). */
  readonly spindleRatio: number;
}

/** A policy that admits everything: no bands, every template, no ratio limits. */
export const OPEN_POLICY: InstancePolicy = {
  bands: [],
  diskTemplates: [],
  vcpuRatio: Number.POSITIVE_INFINITY,
  spindleRatio: Number.POSITIVE_INFINITY,
};

const within = (value: number, min: number | undefined, max: number | undefined) =>
  (min === undefined || value >= min) && (max === undefined || value <= max);

/** Why a band refuses the instance (the first field out of range, in Ganeti's order), or undefined. */
function bandFailure(
  spec: InstanceSpec,
  min: SpecBound,
  max: SpecBound,
  spindles: number,
): FailMode | undefined {
  if (!within(spec.memory, min.memorySize, max.memorySize)) return "FailMem";
  // Each disk on its own: the band bounds a disk, not the sum.
  for (const disk of spec.disks) if (!within(disk.size, min.diskSize, max.diskSize)) return "FailDisk";
  if (spec.template !== "diskless" && !within(spec.disks.length, min.diskCount, max.diskCount))
    return "FailDiskCount";
  if (!within(spec.vcpus, min.cpuCount, max.cpuCount)) return "FailCPU";
  if (!within(spindles, min.spindleUse, max.spindleUse)) return "FailSpindles";
  return undefined;
}

/**
 * Why the policy refuses the instance, or undefined: the template must be
 * allowed and the instance must fit at least one band (the first band's
 * reason is reported when none fits). With exclusive storage the spindles
 * its disks take stand for its declared spindle use, as in Ganeti.
 */
export function policyFailure(
  policy: InstancePolicy,
  spec: InstanceSpec,
  exclusiveStorage = false,
): FailMode | undefined {
  if (policy.diskTemplates.length > 0 && !policy.diskTemplates.includes(spec.template)) return "FailDisk";
  const spindles = exclusiveStorage ? (diskSpindles(spec) ?? 0) : spec.spindleUse;
  let first: FailMode | undefined;
  for (const band of policy.bands) {
    const why = bandFailure(spec, band.min, band.max, spindles);
    if (why === undefined) return undefined;
    first ??= why;
  }
  return first;
}
