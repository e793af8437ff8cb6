import { describe, expect, it } from "vitest";
import type { ProviderRecord } from "../store/records.js";
import { canProvide, filterProviders } from "./filter.js";
import { inOneSubtree, wouldLoop } from "./tree.js";

const provider = (
  uuid: string,
  parentUuid: string | null,
  extra: Partial<ProviderRecord> = {},
): ProviderRecord => ({
  uuid,
  name: uuid,
  parentUuid,
  rootUuid: parentUuid === null ? uuid : "root",
  generation: 0,
  inventories: {},
  traits: [],
  aggregates: [],
  createdAt: "",
  updatedAt: "",
  ...extra,
});

describe("provider trees", () => {
  const tree = [provider("root", null), provider("numa", "root"), provider("gpu", "numa")];
  const byUuid = new Map(tree.map((p) => [p.uuid, p]));

  it("refuses a parent below the provider itself, and the provider itself", () => {
    expect(wouldLoop(byUuid, "root", "gpu")).toBe(true);
    expect(wouldLoop(byUuid, "numa", "numa")).toBe(true);
    expect(wouldLoop(byUuid, "gpu", "root")).toBe(false);
  });

  it("finds providers in one subtree when one of them is above all the others", () => {
    const wide = [...tree, provider("numa2", "root"), provider("gpu2", "numa2")];
    const all = new Map(wide.map((p) => [p.uuid, p]));
    expect(inOneSubtree(["gpu"], all)).toBe(true);
    expect(inOneSubtree(["numa", "gpu"], all)).toBe(true);
    expect(inOneSubtree(["gpu", "gpu2"], all)).toBe(false);
    expect(inOneSubtree(["gpu", "gpu2", "root"], all)).toBe(true);
    expect(inOneSubtree(["numa", "gpu2"], all)).toBe(false);
  });

  it("in_tree keeps the whole tree of the named provider, and nothing for an unknown one", () => {
    const other = provider("other", null);
    expect(filterProviders([...tree, other], { inTree: "gpu" }, new Map()).map((p) => p.uuid)).toEqual([
      "root",
      "numa",
      "gpu",
    ]);
    expect(filterProviders([...tree, other], { inTree: "missing" }, new Map())).toEqual([]);
  });

  it("required groups are all-of, each group any-of; forbidden excludes", () => {
    const a = provider("a", null, { traits: ["X", "Y"] });
    const b = provider("b", null, { traits: ["Y"] });
    const c = provider("c", null, { traits: ["Z"] });
    const uuids = (filter: Parameters<typeof filterProviders>[1]) =>
      filterProviders([a, b, c], filter, new Map()).map((p) => p.uuid);
    expect(uuids({ required: [["Y"]] })).toEqual(["a", "b"]);
    expect(uuids({ required: [["X", "Z"]] })).toEqual(["a", "c"]);
    expect(uuids({ required: [["Y"]], forbidden: ["X"] })).toEqual(["b"]);
  });
});

describe("canProvide", () => {
  const inventory = { total: 10, reserved: 2, minUnit: 2, maxUnit: 6, stepSize: 2, allocationRatio: 1 };
  const p = provider("p", null, { inventories: { VCPU: inventory } });
  it("applies the capacity formula, unit limits and step over what is used", () => {
    expect(canProvide(p, {}, { VCPU: 6 })).toBe(true);
    expect(canProvide(p, {}, { VCPU: 8 })).toBe(false);
    expect(canProvide(p, {}, { VCPU: 3 })).toBe(false);
    expect(canProvide(p, { VCPU: 4 }, { VCPU: 6 })).toBe(false);
    expect(canProvide(p, {}, { DISK_GB: 1 })).toBe(false);
  });
});
