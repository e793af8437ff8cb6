import { describe, expect, it } from "vitest";
import { newInstance, row, stored } from "../../testing/claim-rows.fixture.js";
import { claimReads, newRecordsOf, projectTotalsToRead, providersToRead } from "./reads.js";

describe("what a Store reads for a claim", () => {
  it("the instances it removes and replaces, ids, names and projects of its records", () => {
    const gone = stored(newInstance("old", "a"));
    const current = stored(newInstance("x", "a"));
    const claim = {
      remove: [{ id: gone.id }],
      replace: [{ record: { ...current, name: "y" }, expectedRevision: 1 }],
      create: [
        newInstance("y", "a"),
        newInstance("", "a", {}, { forthcoming: true }),
        newInstance("z", "b", {}, { project: "p" }),
      ],
    };
    const reads = claimReads(claim);
    expect(reads.instanceIds).toEqual([gone.id, current.id]);
    expect(reads.createIds).toEqual(claim.create.map((r) => r.id));
    // Distinct pairs; the unnamed reservation never clashes, so its name is not looked up.
    expect(reads.names).toEqual([
      ["default", "y"],
      ["p", "z"],
    ]);
    expect(reads.projects).toEqual(["default", "p"]);
    expect(newRecordsOf(claim).map((r) => r.name)).toEqual(["y", "y", "", "z"]);
  });

  it("every provider the rows name, not only the instances' locations", () => {
    const moved = stored(
      newInstance("m", "a", {}, { allocations: [row("a", "VCPU", 2), row("a-gpu0", "VCPU", 1)] }),
    );
    const claim = {
      replace: [
        {
          record: { ...moved, location: "b", allocations: [row("b", "VCPU", 2), row("b-drbd", "VCPU", 1)] },
          expectedRevision: 1,
        },
      ],
      create: [newInstance("n", "c", {}, { allocations: [row("c", "VCPU", 1), row("d", "VCPU", 0)] })],
    };
    expect(providersToRead(claim, new Map([[moved.id, moved]])).sort()).toEqual(
      ["a", "a-gpu0", "b", "b-drbd", "c", "d"].sort(),
    );
    // A removed instance that is gone adds nothing (the rules will refuse the claim).
    expect(providersToRead({ remove: [{ id: "missing" }] }, new Map())).toEqual([]);
  });

  it("project counters only where the claim grows a limited dimension", () => {
    const create = newInstance("n", "a");
    expect(projectTotalsToRead({ create: [create] }, new Map())).toEqual([]);
    expect(projectTotalsToRead({ create: [create], projectLimits: {} }, new Map())).toEqual([]);
    expect(
      projectTotalsToRead({ create: [create], projectLimits: { default: { instances: 5 } } }, new Map()),
    ).toEqual(["default"]);
    expect(
      projectTotalsToRead({ create: [create], projectLimits: { default: { cpu: 5 } } }, new Map()),
    ).toEqual([]);
    const current = stored(newInstance("x", "a"));
    // A rename changes no counter: nothing to read.
    const rename = {
      replace: [{ record: { ...current, name: "y" }, expectedRevision: 1 }],
      projectLimits: { default: { instances: 1 } },
    };
    expect(projectTotalsToRead(rename, new Map([[current.id, current]]))).toEqual([]);
  });
});
