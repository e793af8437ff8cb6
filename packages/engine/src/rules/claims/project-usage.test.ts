import { PROJECT_COUNT_LIMIT_KEYS, PROJECT_SIZE_LIMIT_KEYS } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { newInstance } from "../../testing/claim-rows.fixture.js";
import {
  addProjectTotals,
  countInProject,
  isProjectChange,
  PROJECT_DIMENSIONS,
  PROJECT_LIMIT_KEYS,
  projectChangesOf,
  projectUsageOf,
  zeroProjectTotals,
} from "./project-usage.js";

const limitsUsage = { cpu: 2, memoryBytes: 1024, diskBytes: 4096 };

describe("what an instance counts against project limits", () => {
  it("a container counts once, as a container, with its limits usage", () => {
    expect(projectUsageOf({ type: "container", limitsUsage })).toEqual({
      instances: 1,
      containers: 1,
      virtualMachines: 0,
      cpu: 2,
      memoryBytes: 1024,
      diskBytes: 4096,
    });
  });

  it("a virtual machine counts as one, in virtualMachines", () => {
    expect(projectUsageOf({ type: "virtual-machine", limitsUsage })).toMatchObject({
      instances: 1,
      containers: 0,
      virtualMachines: 1,
    });
  });

  it("counting in and out again leaves nothing", () => {
    const totals = zeroProjectTotals();
    countInProject(totals, { type: "virtual-machine", limitsUsage }, 1);
    countInProject(totals, { type: "virtual-machine", limitsUsage }, -1);
    expect(totals).toEqual(zeroProjectTotals());
    expect(isProjectChange(totals)).toBe(false);
  });

  it("a claim's change: removed versions out, new versions in, per project", () => {
    const old = { ...newInstance("a", "n1", {}, { limitsUsage }), revision: 1 };
    const grown = { ...old, limitsUsage: { ...limitsUsage, cpu: 3 } };
    const other = newInstance("b", "n1", {}, { project: "p", type: "virtual-machine" });
    const changes = projectChangesOf([old], [grown, other]);
    expect(changes.get("default")).toEqual({ ...zeroProjectTotals(), cpu: 1 });
    expect(changes.get("p")).toEqual({ ...zeroProjectTotals(), instances: 1, virtualMachines: 1 });
    expect(isProjectChange(changes.get("default")!)).toBe(true);
  });

  it("adds a change to counters in place", () => {
    const totals = { ...zeroProjectTotals(), instances: 2 };
    addProjectTotals(totals, { ...zeroProjectTotals(), instances: -1, cpu: 4 });
    expect(totals).toEqual({ ...zeroProjectTotals(), instances: 1, cpu: 4 });
  });

  it("names LXD's config key of every dimension, in the order limits are checked", () => {
    expect(PROJECT_DIMENSIONS).toEqual([
      "instances",
      "containers",
      "virtualMachines",
      "cpu",
      "memoryBytes",
      "diskBytes",
    ]);
    expect(PROJECT_DIMENSIONS.map((d) => PROJECT_LIMIT_KEYS[d])).toEqual([
      "limits.instances",
      "limits.containers",
      "limits.virtual-machines",
      "limits.cpu",
      "limits.memory",
      "limits.disk",
    ]);
    // Every key the wire schema shape-checks is one the engine counts, and no other.
    expect(Object.values(PROJECT_LIMIT_KEYS).sort()).toEqual(
      [...PROJECT_COUNT_LIMIT_KEYS, ...PROJECT_SIZE_LIMIT_KEYS].sort(),
    );
  });
});
