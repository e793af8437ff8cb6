import type { AllocationRow, NewInstance } from "@berth/engine";
import { CUSTOM_CLASSES, FORTHCOMING_EVERY, GENERATED_AT, INSTANCE_SIZES, PROJECTS } from "./catalog.js";
import { hasFpga, hasGpus, memberArchitecture, memberName } from "./member-spec.js";

/**
 * Instance n (0-based) of a cluster of `members` members. Instances are dealt
 * round-robin, so every member hosts the same number; the k-th instance a
 * member receives is `k = floor(n / members)`. The first two instances on a
 * GPU member hold a GPU each, the first one on an FPGA member its FPGA.
 */
export interface InstancePlacement {
  memberIndex: number;
  /** How many instances this member received before this one. */
  rank: number;
}

export function placementOf(n: number, members: number): InstancePlacement {
  return { memberIndex: (n % members) + 1, rank: Math.floor(n / members) };
}

export function instanceId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

/**
 * Size, project and reservation status mix `n` with the rank, so that every
 * member gets a mix (with `n` alone, a member count divisible by ten would
 * give each member one size and one project).
 */
export function sizeIndexOf(n: number, members: number): number {
  return (n + placementOf(n, members).rank) % INSTANCE_SIZES.length;
}

export function projectIndexOf(n: number, members: number): number {
  return (n + 3 * placementOf(n, members).rank) % PROJECTS.length;
}

export function isForthcoming(n: number, members: number): boolean {
  return (n + placementOf(n, members).rank) % FORTHCOMING_EVERY === 0;
}

export function instanceSpec(n: number, members: number): NewInstance {
  const { memberIndex, rank } = placementOf(n, members);
  const size = INSTANCE_SIZES[sizeIndexOf(n, members)]!;
  const member = memberName(memberIndex);
  const forthcoming = isForthcoming(n, members);
  const ledger = forthcoming ? "forthcoming" : "used";
  const allocations: AllocationRow[] = [
    { member, resourceClass: "VCPU", ledger, amount: size.vcpus },
    { member, resourceClass: "MEMORY_MB", ledger, amount: size.memoryMiB },
    { member, resourceClass: "DISK_GB", ledger, amount: size.diskGiB },
  ];
  if (hasGpus(memberIndex) && rank < 2) {
    allocations.push({ member, resourceClass: CUSTOM_CLASSES.gpu, ledger, amount: 1 });
  }
  if (hasFpga(memberIndex) && rank < 1) {
    allocations.push({ member, resourceClass: CUSTOM_CLASSES.fpga, ledger, amount: 1 });
  }
  return {
    id: instanceId(n),
    project: PROJECTS[projectIndexOf(n, members)]!,
    name: `inst-${n}`,
    type: n % 3 === 0 ? "virtual-machine" : "container",
    location: member,
    forthcoming,
    architecture: memberArchitecture(memberIndex),
    description: "",
    ephemeral: false,
    profiles: ["default"],
    config: { "limits.cpu": String(size.vcpus), "limits.memory": `${size.memoryMiB}MiB` },
    devices: { root: { path: "/", pool: "default", type: "disk", size: `${size.diskGiB}GiB` } },
    instanceType: null,
    flavor: null,
    source: null,
    placementGroup: null,
    origin: null,
    createdAt: GENERATED_AT,
    // Generated rows were never placed by the engine: no decision record (as rows from before records).
    decision: null,
    allocations,
    limitsUsage: {
      cpu: size.vcpus,
      memoryBytes: size.memoryMiB * 1024 * 1024,
      diskBytes: size.diskGiB * 1024 ** 3,
    },
  };
}
