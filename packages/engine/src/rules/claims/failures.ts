/**
 * Every refusal a claim can answer with, in one place, so each Store
 * (in-memory, SQLite, PostgreSQL) refuses with the same kind, text and
 * `ClaimFailureDetails`, which the engine re-plans on and the Store
 * contract suite checks. Only the rules in this folder throw them.
 */
import { capacityReportHint, type Inventory } from "@berth/resources";
import { EngineError, notFound } from "../../base/errors.js";
import type { ClaimFailureDetails } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import { type LimitExcess, PROJECT_LIMIT_KEYS, type ProjectDimension } from "./project-usage.js";

/** An `EngineError` carrying `ClaimFailureDetails`: the shape every claim refusal takes. */
export function claimFailure(
  kind: "conflict" | "insufficient_capacity",
  message: string,
  details: ClaimFailureDetails,
): EngineError {
  return new EngineError(kind, message, details as unknown as Record<string, unknown>);
}

/** A removed or replaced instance is gone. */
export function instanceMissingFailure(id: string): EngineError {
  return claimFailure("conflict", `Instance "${id}" no longer exists`, { reason: "instance_missing", id });
}

/** A removed or replaced instance changed since the claim was planned. */
export function revisionFailure(current: InstanceRecord, expected: number): EngineError {
  return claimFailure(
    "conflict",
    `Instance "${current.name}" was changed concurrently (revision ${current.revision}, expected ${expected})`,
    { reason: "revision", id: current.id, expected, actual: current.revision },
  );
}

/** A new instance's id is already used (by an instance, or a Placement consumer's uuid). */
export function idTakenFailure(id: string): EngineError {
  return claimFailure("conflict", `Instance id "${id}" already exists`, { reason: "id_taken", id });
}

/** A new instance's name is already used in its project. */
export function nameTakenFailure(project: string, name: string): EngineError {
  return claimFailure("conflict", `Instance "${name}" already exists in project "${project}"`, {
    reason: "name_taken",
    project,
    name,
  });
}

/** Not a claim failure (nothing to re-plan): the caller named a project that does not exist. */
export function projectMissingError(project: string): EngineError {
  return notFound(`Project "${project}" not found`);
}

/** A record's location, or a provider an allocation names, is gone. */
export function memberMissingFailure(member: string): EngineError {
  return claimFailure("conflict", `Cluster member "${member}" no longer exists`, {
    reason: "member_missing",
    member,
  });
}

/** The provider has no inventory of a class the claim allocates. */
export function noInventoryFailure(member: string, resourceClass: string): EngineError {
  const hint = capacityReportHint(resourceClass, member);
  return claimFailure(
    "insufficient_capacity",
    hint === undefined
      ? `Cluster member "${member}" has no inventory of ${resourceClass}`
      : `Cluster member "${member}" has no inventory of ${resourceClass}: ${hint}`,
    { reason: "no_inventory", member, resourceClass },
  );
}

/** An allocation below min_unit, above max_unit or off the step_size. */
export function constraintsFailure(
  row: { member: string; resourceClass: string; amount: number },
  inventory: Inventory,
): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Allocation of ${row.amount} ${row.resourceClass} on cluster member "${row.member}" would violate inventory constraints`,
    {
      reason: "constraints",
      member: row.member,
      resourceClass: row.resourceClass,
      amount: row.amount,
      minUnit: inventory.minUnit,
      maxUnit: inventory.maxUnit,
      stepSize: inventory.stepSize,
    },
  );
}

/** Growth of `requested` on top of `used` (both ledgers) would pass `capacity`. */
export function capacityFailure(
  member: string,
  resourceClass: string,
  requested: number,
  used: number,
  capacity: number,
): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Allocation of ${requested} ${resourceClass} on cluster member "${member}" would exceed the capacity (used ${used} of ${capacity})`,
    { reason: "capacity", member, resourceClass, requested, used, capacity },
  );
}

/**
 * N+1: `member` would lack the MEMORY_MB to take over the instances it
 * mirrors for `primary` (`requested`) beside what it runs (`used`).
 */
export function failoverFailure(
  member: string,
  primary: string,
  requested: number,
  used: number,
  capacity: number,
): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Cluster member "${member}" could not take over the ${requested} MEMORY_MB of the instances it mirrors for "${primary}" (used ${used} of ${capacity})`,
    { reason: "failover", member, primary, requested, used, capacity },
  );
}

/** LXD's type names in its per-type instance-count refusal. */
const COUNTED_TYPES: Partial<Record<ProjectDimension, string>> = {
  containers: "container",
  virtualMachines: "virtual-machine",
};

/**
 * LXD's words for a project limit a change would break. `shown` is the
 * limit as configured (`4GiB`); the counts need none.
 */
export function projectLimitMessage(project: string, limit: ProjectDimension, shown: string): string {
  if (limit === "instances") return `Reached maximum number of instances in project "${project}"`;
  const type = COUNTED_TYPES[limit];
  if (type !== undefined)
    return `Reached maximum number of instances of type "${type}" in project "${project}"`;
  return `Reached maximum aggregate value "${shown}" for "${PROJECT_LIMIT_KEYS[limit]}" in project "${project}"`;
}

/** A limit as a project's config would write it: counts and CPUs as numbers, sizes in the largest exact binary unit. */
export function shownLimit(limit: ProjectDimension, max: number): string {
  if (limit !== "memoryBytes" && limit !== "diskBytes") return String(max);
  for (const [unit, size] of [
    ["TiB", 1024 ** 4],
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (max > 0 && max % size === 0) return `${max / size}${unit}`;
  }
  return `${max}B`;
}

/**
 * The claim would take a project past one of its limits (`limits.cpu`, `limits.instances`, ...).
 */
export function projectLimitFailure(project: string, { limit, value, max }: LimitExcess): EngineError {
  return claimFailure("insufficient_capacity", projectLimitMessage(project, limit, shownLimit(limit, max)), {
    reason: "project_limit",
    project,
    limit,
    value,
    max,
  });
}
