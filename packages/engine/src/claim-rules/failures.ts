/**
 * Every refusal a claim can answer with, in one place, so each Store
 * (in-memory, SQLite, PostgreSQL) refuses with the same kind, text and
 * `ClaimFailureDetails`, which the engine re-plans on and the Store
 * contract suite checks. Only the rules in this folder throw them.
 */
import type { Inventory } from "@berth/resources";
import { EngineError, notFound } from "../errors.js";
import type { ClaimFailureDetails } from "../store/port.js";
import type { InstanceRecord } from "../store/records.js";
import type { LimitExcess } from "./project-limits.js";

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

export function idTakenFailure(id: string): EngineError {
  return claimFailure("conflict", `Instance id "${id}" already exists`, { reason: "id_taken", id });
}

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
  return claimFailure(
    "insufficient_capacity",
    `Cluster member "${member}" has no inventory of ${resourceClass}`,
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

export function projectLimitFailure(project: string, { limit, value, max }: LimitExcess): EngineError {
  return claimFailure(
    "insufficient_capacity",
    `Project "${project}" limit ${limit} would be exceeded (${value} > ${max})`,
    { reason: "project_limit", project, limit, value, max },
  );
}
