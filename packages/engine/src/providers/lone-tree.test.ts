import { describe, expect, it } from "vitest";
import type { ProviderRecord } from "../store/records.js";
import { inventory } from "../testing/fixtures.js";
import { CandidateIndex } from "./candidate-index.js";
import { allocationCandidates, type RequestGroup } from "./candidates.js";
import { groupChoices, type SearchSpace } from "./request-group.js";

/** Lone trees of every sort the search judges: units, reserved, ratios, traits, aggregates, a missing class. */
const lone = (index: number, extra: Partial<ProviderRecord>): ProviderRecord => ({
  uuid: `root-${index}`,
  name: `root-${index}`,
  parentUuid: null,
  rootUuid: `root-${index}`,
  generation: 0,
  inventories: { VCPU: inventory(8), DISK_GB: inventory(100) },
  traits: [],
  aggregates: [],
  createdAt: String(index).padStart(4, "0"),
  updatedAt: "",
  ...extra,
});
const roots = [
  lone(0, {}),
  lone(1, { traits: ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"], aggregates: ["agg-a"] }),
  lone(2, { inventories: { VCPU: inventory(8, { stepSize: 2 }), DISK_GB: inventory(100) } }),
  lone(3, { inventories: { VCPU: inventory(8, { minUnit: 4 }), DISK_GB: inventory(100) } }),
  lone(4, { inventories: { VCPU: inventory(8, { maxUnit: 1 }), DISK_GB: inventory(100) } }),
  lone(5, { inventories: { VCPU: inventory(8, { reserved: 7 }), DISK_GB: inventory(100) } }),
  lone(6, { inventories: { VCPU: inventory(2, { allocationRatio: 1.5 }), DISK_GB: inventory(100) } }),
  lone(7, { inventories: { VCPU: inventory(8) } }),
  lone(8, { traits: ["CUSTOM_GOLD"], aggregates: ["agg-b"] }),
  lone(9, { aggregates: ["agg-a", "agg-b"] }),
];
const usage = new Map<string, Record<string, number>>([
  ["root-0", { VCPU: 6 }],
  ["root-9", { DISK_GB: 99 }],
]);

const groupsJudged: RequestGroup[] = [
  { suffix: "", resources: { VCPU: 2, DISK_GB: 10 } },
  { suffix: "", resources: { VCPU: 1 } },
  { suffix: "", resources: { DISK_GB: 1 } },
  { suffix: "", resources: { VCPU: 2 }, required: [["CUSTOM_GOLD"]] },
  { suffix: "", resources: { VCPU: 2 }, required: [["CUSTOM_GOLD", "HW_CPU_X86_AVX2"], ["CUSTOM_GOLD"]] },
  { suffix: "", resources: { VCPU: 2 }, forbidden: ["CUSTOM_GOLD"] },
  { suffix: "", resources: { VCPU: 2 }, memberOf: [["agg-a"], ["agg-b", "agg-a"]] },
  { suffix: "", resources: { VCPU: 2 }, notMemberOf: ["agg-b"] },
  { suffix: "", resources: { VCPU: 2 }, inTree: "root-8" },
  { suffix: "", resources: { VCPU: 2 }, inTree: "nowhere" },
];

describe("the search of lone trees", () => {
  it("finds, root by root, what the general search of one group finds", () => {
    const index = new CandidateIndex(roots);
    expect(index.lone.every(Boolean)).toBe(true);
    const space: SearchSpace = {
      byUuid: index.byUuid,
      usage,
      tree: (root) => index.tree(root),
      lenders: (root) => index.lenders(root),
    };
    for (const group of groupsJudged) {
      const general = roots.flatMap((root) =>
        groupChoices(group, root.uuid, space).map((choice) => ({
          allocations: choice.allocations,
          mappings: { "": choice.providers },
        })),
      );
      const answer = allocationCandidates(index, usage, { groups: [group] });
      expect(answer.candidates, JSON.stringify(group)).toEqual(general);
      expect(JSON.stringify(answer.candidates)).toEqual(JSON.stringify(general));
      const taken = new Set(general.flatMap((candidate) => Object.keys(candidate.allocations)));
      expect(answer.providers.map((p) => p.uuid)).toEqual(
        roots.map((p) => p.uuid).filter((u) => taken.has(u)),
      );
      // The answer says so: candidate i is provider i's alone, every one with the same amounts.
      expect(answer.alone).toBe(true);
      answer.candidates.forEach((candidate, at) => {
        expect(Object.keys(candidate.allocations)).toEqual([answer.providers[at]?.uuid]);
        expect(candidate.allocations[answer.providers[at]?.uuid ?? ""]).toBe(
          answer.candidates[0]?.allocations[answer.providers[0]?.uuid ?? ""],
        );
      });
    }
  });

  it("builds a lone root's candidate once per amounts while the index holds (the last four amounts asked)", () => {
    const index = new CandidateIndex(roots);
    const ask = (resources: Record<string, number>) =>
      allocationCandidates(index, new Map(), { groups: [{ suffix: "", resources }] }).candidates;
    const first = ask({ VCPU: 1 });
    expect(ask({ VCPU: 1 })[0]).toBe(first[0]);
    // Other amounts, or the same classes in another order (the answer keeps the request's order), are others.
    expect(ask({ VCPU: 1, DISK_GB: 1 })[0]).not.toBe(first[0]);
    expect(Object.keys(ask({ DISK_GB: 1, VCPU: 1 })[0]?.allocations["root-0"] ?? {})).toEqual([
      "DISK_GB",
      "VCPU",
    ]);
    expect(ask({ VCPU: 1 })[0]).toBe(first[0]);
    for (const vcpu of [2, 3, 4, 5]) ask({ VCPU: vcpu });
    const again = ask({ VCPU: 1 });
    expect(again[0]).not.toBe(first[0]);
    expect(again).toEqual(first);
    // Another index (the rows changed) builds its own.
    expect(
      allocationCandidates(new CandidateIndex(roots), new Map(), {
        groups: [{ suffix: "", resources: { VCPU: 1 } }],
      }).candidates[0],
    ).not.toBe(again[0]);
  });

  it("does not say the candidates are alone when a tree with children or a lender served one", () => {
    const child = { ...lone(20, { inventories: { SRIOV_NET_VF: inventory(4) } }), uuid: "child" };
    const tree = [...roots, { ...child, parentUuid: "root-1", rootUuid: "root-1" }];
    const answer = allocationCandidates(new CandidateIndex(tree), usage, {
      groups: [{ suffix: "", resources: { VCPU: 1 } }],
    });
    expect(answer.candidates.length).toBeGreaterThan(1);
    expect(answer.alone).not.toBe(true);
  });

  it("sees a claim between two searches (usage is read, never kept)", () => {
    const index = new CandidateIndex(roots);
    const request = { groups: [{ suffix: "", resources: { DISK_GB: 60 } }] };
    const before = allocationCandidates(index, new Map(), request).candidates.length;
    const after = allocationCandidates(index, new Map([["root-1", { DISK_GB: 50 }]]), request).candidates;
    expect(after).toHaveLength(before - 1);
    expect(after.some((candidate) => "root-1" in candidate.allocations)).toBe(false);
  });

  it("leaves trees with children, lenders or the sharing trait to the general search", () => {
    const child = { ...lone(20, {}), uuid: "child", parentUuid: "root-0", rootUuid: "root-0" };
    const sharing = lone(21, { traits: ["MISC_SHARES_VIA_AGGREGATE"], aggregates: ["agg-a"] });
    const index = new CandidateIndex([...roots, child, sharing]);
    const loneness = new Map(index.roots.map((root, at) => [root.uuid, index.lone[at]]));
    expect(loneness.get("root-0")).toBe(false);
    expect(loneness.get("root-1")).toBe(false);
    expect(loneness.get("root-21")).toBe(false);
    expect(loneness.get("root-2")).toBe(true);
  });
});
