/**
 * What an instance counts against its project's LXD limits: the one home of
 * that rule. Every Store's claim, the SQLite counters, the engine's model
 * and its pre-check all count through `countInProject`.
 */
import type { PROJECT_COUNT_LIMIT_KEYS, PROJECT_SIZE_LIMIT_KEYS } from "@berth/api-types";
import type { ProjectLimits } from "../../store/port.js";
import type { InstanceType, LimitsUsage } from "../../store/records.js";

/**
 * One dimension LXD project limits bound: instances, containers, virtual machines, CPU, memory,
 * disk.
 */
export type ProjectDimension = keyof ProjectLimits;

/** The limited dimension a change grows past its limit. */
export interface LimitExcess {
  /** The dimension that would go over (the first in `PROJECT_DIMENSIONS` order). */
  limit: ProjectDimension;
  /** The project's total in that dimension after the change (instances, CPUs or bytes). */
  value: number;
  /** The limit it exceeds, in the same unit. */
  max: number;
}

/** A project's counters (or a change to them), one number per dimension. */
export type ProjectTotals = Record<ProjectDimension, number>;

/** An LXD project config key Berth enforces (api-types' lists, which also shape-check the values). */
export type ProjectLimitKey =
  | (typeof PROJECT_COUNT_LIMIT_KEYS)[number]
  | (typeof PROJECT_SIZE_LIMIT_KEYS)[number];

/** Each dimension with the LXD project config key that limits it. */
export const PROJECT_LIMIT_KEYS = {
  /** Instances and reservations, of any type. */
  instances: "limits.instances",
  /** Containers. */
  containers: "limits.containers",
  /** Virtual machines. */
  virtualMachines: "limits.virtual-machines",
  /** CPUs summed over the project's instances. */
  cpu: "limits.cpu",
  /** Memory summed over the project's instances, in bytes. */
  memoryBytes: "limits.memory",
  /** Root disk sizes summed over the project's instances, in bytes. */
  diskBytes: "limits.disk",
} as const satisfies Record<ProjectDimension, ProjectLimitKey>;

/** Every dimension, in the order limits are checked (and a refusal names the first). */
export const PROJECT_DIMENSIONS = Object.keys(PROJECT_LIMIT_KEYS) as readonly ProjectDimension[];

/** Counters of a project with nothing in it. */
export function zeroProjectTotals(): ProjectTotals {
  return { instances: 0, containers: 0, virtualMachines: 0, cpu: 0, memoryBytes: 0, diskBytes: 0 };
}

/** The fields of an instance (or of a request for one) that project limits count. */
export interface CountedInstance {
  /** `container` or `virtual-machine`: which count (containers, virtual machines) it adds to. */
  readonly type: InstanceType;
  /** What it adds to the CPU, memory and disk totals. */
  readonly limitsUsage: LimitsUsage;
}

/**
 * Adds one instance (`sign` 1) to a project's counters, or takes it away
 * (-1), in place. Reservations count like instances: LXD limits hold back
 * what is promised, not only what runs.
 */
export function countInProject(totals: ProjectTotals, instance: CountedInstance, sign: number): void {
  totals.instances += sign;
  if (instance.type === "container") totals.containers += sign;
  else totals.virtualMachines += sign;
  totals.cpu += sign * instance.limitsUsage.cpu;
  totals.memoryBytes += sign * instance.limitsUsage.memoryBytes;
  totals.diskBytes += sign * instance.limitsUsage.diskBytes;
}

/** What one instance adds to its project's counters. */
export function projectUsageOf(instance: CountedInstance): ProjectTotals {
  const totals = zeroProjectTotals();
  countInProject(totals, instance, 1);
  return totals;
}

/** How a claim changes each project's counters: removed instances out, new versions in. */
export function projectChangesOf(
  removed: readonly (CountedInstance & { readonly project: string })[],
  added: readonly (CountedInstance & { readonly project: string })[],
): Map<string, ProjectTotals> {
  const changes = new Map<string, ProjectTotals>();
  const count = (record: CountedInstance & { readonly project: string }, sign: number) => {
    let totals = changes.get(record.project);
    if (totals === undefined) changes.set(record.project, (totals = zeroProjectTotals()));
    countInProject(totals, record, sign);
  };
  for (const record of removed) count(record, -1);
  for (const record of added) count(record, 1);
  return changes;
}

/** Adds a change to a project's counters, in place. */
export function addProjectTotals(totals: ProjectTotals, change: Readonly<ProjectTotals>): void {
  for (const dimension of PROJECT_DIMENSIONS) totals[dimension] += change[dimension];
}

/** Whether any dimension of a change is not zero (only those are worth writing). */
export function isProjectChange(change: Readonly<ProjectTotals>): boolean {
  return PROJECT_DIMENSIONS.some((dimension) => change[dimension] !== 0);
}
