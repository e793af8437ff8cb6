import { describe, expect, it } from "vitest";
import { refusal } from "../../testing/claim-rows.fixture.js";
import { checkProjectLimits, exceededLimit, limitedProjects } from "./project-limits.js";
import { type ProjectTotals, zeroProjectTotals } from "./project-usage.js";

const totals = (values: Partial<ProjectTotals>): ProjectTotals => ({ ...zeroProjectTotals(), ...values });

describe("exceededLimit", () => {
  it("reports the first limited dimension the change grows past its limit", () => {
    expect(
      exceededLimit(
        { instances: 3, cpu: 4 },
        totals({ instances: 3, cpu: 3 }),
        totals({ instances: 1, cpu: 2 }),
      ),
    ).toEqual({
      limit: "instances",
      value: 4,
      max: 3,
    });
    expect(exceededLimit({ cpu: 4 }, totals({ cpu: 3 }), totals({ cpu: 2 }))).toEqual({
      limit: "cpu",
      value: 5,
      max: 4,
    });
  });

  it("allows reaching the limit exactly, and ignores unlimited dimensions", () => {
    expect(
      exceededLimit({ cpu: 4 }, totals({ cpu: 2 }), totals({ cpu: 2, memoryBytes: 1e12 })),
    ).toBeUndefined();
  });

  it("checks growth only: usage already above a lowered limit may stay or shrink", () => {
    expect(exceededLimit({ instances: 1 }, totals({ instances: 5 }), totals({}))).toBeUndefined();
    expect(
      exceededLimit({ instances: 1 }, totals({ instances: 5 }), totals({ instances: -1 })),
    ).toBeUndefined();
    expect(exceededLimit({ instances: 1 }, totals({ instances: 5 }), totals({ instances: 1 }))).toMatchObject(
      { limit: "instances" },
    );
  });
});

describe("limitedProjects", () => {
  it("names only projects with a limit on a dimension the claim grows", () => {
    const changes = new Map([
      ["a", totals({ instances: 1 })],
      ["b", totals({ cpu: 1 })],
      ["c", totals({ instances: -1 })],
    ]);
    expect(
      limitedProjects(
        { a: { instances: 1 }, b: { instances: 1 }, c: { instances: 1 }, d: { cpu: 1 } },
        changes,
      ),
    ).toEqual(["a"]);
  });
});

describe("checkProjectLimits", () => {
  const limits = { default: { instances: 2 } };
  const growing = new Map([["default", totals({ instances: 1 })]]);

  it("refuses growth beyond a limit with project_limit", () => {
    const error = refusal(() =>
      checkProjectLimits(limits, growing, new Map([["default", totals({ instances: 2 })]])),
    );
    expect(error.details).toEqual({
      reason: "project_limit",
      project: "default",
      limit: "instances",
      value: 3,
      max: 2,
    });
  });

  it("passes within the limit", () => {
    expect(() =>
      checkProjectLimits(limits, growing, new Map([["default", totals({ instances: 1 })]])),
    ).not.toThrow();
  });

  it("reports a Store that did not read the counters it needed as its own bug", () => {
    const error = refusal(() => checkProjectLimits(limits, growing, new Map()));
    expect([error.kind, error.message]).toEqual([
      "internal",
      'The limit counters of project "default" were not read for this claim',
    ]);
  });
});
