/**
 * What a placement over a handed-in cluster snapshot is asked to place: an
 * instance's size, its disk template and what that template means for the
 * number of members it needs. Ganeti's vocabulary (MiB, disk templates,
 * instance policies) because Ganeti's iallocator is the protocol that hands
 * clusters in whole; the rules themselves live in this folder, once.
 */

/** Why a member (or a pair) was turned down, counted per kind as Ganeti's allocators report them. */
export type FailMode =
  | "FailMem"
  | "FailDisk"
  | "FailCPU"
  | "FailN1"
  | "FailTags"
  | "FailDiskCount"
  | "FailSpindles"
  | "FailInternal";

/** Disk templates whose data lives on the members (a re-creation elsewhere needs disk too). */
const LOCAL_STORAGE = new Set(["plain", "drbd"]);
/** Internally mirrored: a primary and a secondary member holding a copy. */
const MIRRORED = new Set(["drbd"]);

/** The disk templates Ganeti knows; others are refused. */
export const KNOWN_TEMPLATES: readonly string[] = [
  "diskless",
  "plain",
  "drbd",
  "file",
  "sharedfile",
  "blockdev",
  "rbd",
  "ext",
  "gluster",
];

/** Whether instances of this template have a secondary holding a copy (`drbd`). */
export function isMirrored(template: string): boolean {
  return MIRRORED.has(template);
}

/**
 * Whether instances of this template keep their disks on their members (`plain`, `drbd`): then
 * they need local disk and cannot simply move.
 */
export function usesLocalStorage(template: string): boolean {
  return LOCAL_STORAGE.has(template);
}

/** Members an instance of this template occupies: two for a mirrored one, else one. */
export function membersNeeded(template: string): 1 | 2 {
  return isMirrored(template) ? 2 : 1;
}

/** One disk of an instance. */
export interface DiskSpec {
  /** MiB. */
  readonly size: number;
  /** Physical volumes the disk takes with exclusive storage; undefined when not given. */
  readonly spindles: number | undefined;
}

/** What an instance asks of the cluster, as the iallocator request gives it. */
export interface InstanceSpec {
  /** Its name. */
  readonly name: string;
  /** MiB. */
  readonly memory: number;
  /** Virtual CPUs. */
  readonly vcpus: number;
  /** Its disks. */
  readonly disks: readonly DiskSpec[];
  /** Spindles the instance is expected to keep busy (policy and spindle-ratio checks). */
  readonly spindleUse: number;
  /** Its disk template (`drbd`, `plain`, `rbd`, ...). */
  readonly template: string;
  /** Its tags (exclusion tags among them). */
  readonly tags: readonly string[];
  /** Networks its NICs are attached to (a group must be connected to every one). */
  readonly networks: readonly string[];
  /** How many NICs it has (policy bands bound it). */
  readonly nicCount: number;
}

/** Total disk an instance takes on each member it occupies (MiB). */
export function diskTotal(spec: Pick<InstanceSpec, "disks" | "template">): number {
  if (spec.template === "diskless") return 0;
  let total = 0;
  for (const disk of spec.disks) total += disk.size;
  return total;
}

/** Spindles the disks take with exclusive storage, or undefined when a disk does not say. */
export function diskSpindles(spec: Pick<InstanceSpec, "disks">): number | undefined {
  let total = 0;
  for (const disk of spec.disks) {
    if (disk.spindles === undefined) return undefined;
    total += disk.spindles;
  }
  return total;
}
