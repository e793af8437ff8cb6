import { describe, expect, it } from "vitest";
import { inventory, newInstance, stored } from "../../testing/claim-rows.fixture.js";
import {
  capacityFailure,
  constraintsFailure,
  idTakenFailure,
  instanceMissingFailure,
  memberMissingFailure,
  nameTakenFailure,
  noInventoryFailure,
  projectLimitFailure,
  projectMissingError,
  revisionFailure,
} from "./failures.js";

/** The texts the Store contract suite, the engine's re-planning and API clients rely on, literally. */
describe("claim refusals", () => {
  it("conflicts: what changed under the claim", () => {
    const current = stored(newInstance("web1", "a"), 4);
    expect(
      [instanceMissingFailure("id-1"), revisionFailure(current, 3)].map((e) => [e.kind, e.message]),
    ).toEqual([
      ["conflict", 'Instance "id-1" no longer exists'],
      ["conflict", 'Instance "web1" was changed concurrently (revision 4, expected 3)'],
    ]);
    expect(revisionFailure(current, 3).details).toEqual({
      reason: "revision",
      id: current.id,
      expected: 3,
      actual: 4,
    });
    expect(idTakenFailure("id-2").message).toBe('Instance id "id-2" already exists');
    expect(nameTakenFailure("p", "x").details).toEqual({ reason: "name_taken", project: "p", name: "x" });
    expect(nameTakenFailure("p", "x").message).toBe('Instance "x" already exists in project "p"');
    expect(memberMissingFailure("n9").message).toBe('Cluster member "n9" no longer exists');
    expect(memberMissingFailure("n9").details).toEqual({ reason: "member_missing", member: "n9" });
  });

  it("a missing project is not_found, without claim details", () => {
    const error = projectMissingError("nope");
    expect([error.kind, error.message, error.details]).toEqual([
      "not_found",
      'Project "nope" not found',
      undefined,
    ]);
  });

  it("capacity refusals name the member, class and numbers", () => {
    expect(noInventoryFailure("a", "DISK_GB").message).toBe(
      'Cluster member "a" has no inventory of DISK_GB: report storage_pools.POOL.space.total in PUT /1.0/cluster/members/a/state, or set its DISK_GB inventory',
    );
    expect(noInventoryFailure("a", "CUSTOM_FPGA").message).toBe(
      'Cluster member "a" has no inventory of CUSTOM_FPGA',
    );
    const constraints = constraintsFailure(
      { member: "a", resourceClass: "VCPU", amount: 3 },
      inventory(64, { minUnit: 2, maxUnit: 16, stepSize: 2 }),
    );
    expect([constraints.kind, constraints.message]).toEqual([
      "insufficient_capacity",
      'Allocation of 3 VCPU on cluster member "a" would violate inventory constraints',
    ]);
    expect(constraints.details).toEqual({
      reason: "constraints",
      member: "a",
      resourceClass: "VCPU",
      amount: 3,
      minUnit: 2,
      maxUnit: 16,
      stepSize: 2,
    });
    const capacity = capacityFailure("n2", "DISK_GB", 20, 90, 100);
    expect(capacity.message).toBe(
      'Allocation of 20 DISK_GB on cluster member "n2" would exceed the capacity (used 90 of 100)',
    );
    expect(capacity.details).toEqual({
      reason: "capacity",
      member: "n2",
      resourceClass: "DISK_GB",
      requested: 20,
      used: 90,
      capacity: 100,
    });
    const limit = projectLimitFailure("default", { limit: "cpu", value: 5, max: 4 });
    expect([limit.kind, limit.message]).toEqual([
      "insufficient_capacity",
      'Reached maximum aggregate value "4" for "limits.cpu" in project "default"',
    ]);
    expect(limit.details).toEqual({
      reason: "project_limit",
      project: "default",
      limit: "cpu",
      value: 5,
      max: 4,
    });
  });
});
