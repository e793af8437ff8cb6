import { describe, expect, it } from "vitest";
import type { ProviderRecord } from "../store/records.js";
import { allocationCandidates } from "./candidates.js";

const inventory = (total: number) => ({
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
});

let clock = 0;
const provider = (
  uuid: string,
  parentUuid: string | null,
  rootUuid: string,
  extra: Partial<ProviderRecord> = {},
): ProviderRecord => ({
  uuid,
  name: uuid,
  parentUuid,
  rootUuid,
  generation: 0,
  inventories: {},
  traits: [],
  aggregates: [],
  createdAt: String(clock++).padStart(4, "0"),
  updatedAt: "",
  ...extra,
});

const cn1 = provider("cn1", null, "cn1", {
  inventories: { VCPU: inventory(4) },
  traits: ["HW_CPU_X86_SSE"],
  aggregates: ["agg"],
});
const pf1 = provider("pf1", "cn1", "cn1", { inventories: { SRIOV_NET_VF: inventory(8) } });
const cn2 = provider("cn2", null, "cn2", { inventories: { VCPU: inventory(4), DISK_GB: inventory(100) } });
const ss = provider("ss", null, "ss", {
  inventories: { DISK_GB: inventory(1000) },
  traits: ["MISC_SHARES_VIA_AGGREGATE"],
  aggregates: ["agg"],
});
const all = [cn1, pf1, cn2, ss];
const none = new Map<string, Record<string, number>>();

describe("allocation candidates", () => {
  it("spreads classes over one tree and takes disk from a sharing provider of its aggregate", () => {
    const answer = allocationCandidates(all, none, { resources: { VCPU: 1, DISK_GB: 10 } });
    expect(answer.candidates.map((c) => c.allocations)).toEqual([
      { cn1: { VCPU: 1 }, ss: { DISK_GB: 10 } },
      { cn2: { VCPU: 1, DISK_GB: 10 } },
    ]);
    expect(answer.providers.map((p) => p.uuid)).toEqual(["cn1", "pf1", "cn2", "ss"]);
  });

  it("combines a root and its child from 1.29, never before", () => {
    const request = { resources: { VCPU: 1, SRIOV_NET_VF: 2 } };
    expect(allocationCandidates(all, none, request).candidates).toHaveLength(1);
    expect(allocationCandidates(all, none, { ...request, oneProviderPerTree: true }).candidates).toEqual([]);
  });

  it("counts what is used, and judges traits, aggregates, in_tree and limit", () => {
    const used = new Map([["cn2", { VCPU: 4 }]]);
    expect(allocationCandidates(all, used, { resources: { VCPU: 1 } }).candidates).toHaveLength(1);
    const vcpu = { resources: { VCPU: 1 } };
    expect(allocationCandidates(all, none, { ...vcpu, required: [["HW_CPU_X86_SSE"]] }).candidates).toEqual([
      { allocations: { cn1: { VCPU: 1 } } },
    ]);
    expect(allocationCandidates(all, none, { ...vcpu, forbidden: ["HW_CPU_X86_SSE"] }).candidates).toEqual([
      { allocations: { cn2: { VCPU: 1 } } },
    ]);
    expect(allocationCandidates(all, none, { ...vcpu, notMemberOf: ["agg"] }).candidates).toHaveLength(1);
    // The root's aggregate covers its child; the sharing provider is in it too.
    const vf = { resources: { SRIOV_NET_VF: 1, DISK_GB: 10 }, memberOf: [["agg"]] };
    expect(allocationCandidates(all, none, vf).candidates).toEqual([
      { allocations: { pf1: { SRIOV_NET_VF: 1 }, ss: { DISK_GB: 10 } } },
    ]);
    expect(allocationCandidates(all, none, { ...vcpu, limit: 1 }).candidates).toHaveLength(1);
    const inTree = allocationCandidates(all, none, { resources: { VCPU: 1, DISK_GB: 10 }, inTree: "pf1" });
    expect(inTree.candidates).toEqual([]);
    expect(allocationCandidates(all, none, { ...vcpu, inTree: "nowhere" }).candidates).toEqual([]);
  });
});
