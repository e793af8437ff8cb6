import { describe, expect, it } from "vitest";
import type { ProviderRecord } from "../store/records.js";
import { allocationCandidates, type CandidateRequest, type RequestGroup } from "./candidates.js";

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

const one = (resources: Record<string, number>, extra: Partial<RequestGroup> = {}): CandidateRequest => ({
  groups: [{ suffix: "", resources, ...extra }],
});

describe("allocation candidates", () => {
  it("spreads classes over one tree and takes disk from a sharing provider of its aggregate", () => {
    const answer = allocationCandidates(all, none, one({ VCPU: 1, DISK_GB: 10 }));
    expect(answer.candidates).toEqual([
      { allocations: { cn1: { VCPU: 1 }, ss: { DISK_GB: 10 } }, mappings: { "": ["cn1", "ss"] } },
      { allocations: { cn2: { VCPU: 1, DISK_GB: 10 } }, mappings: { "": ["cn2"] } },
    ]);
    expect(answer.providers.map((p) => p.uuid)).toEqual(["cn1", "pf1", "cn2", "ss"]);
  });

  it("combines a root and its child from 1.29, never before", () => {
    const request = one({ VCPU: 1, SRIOV_NET_VF: 2 });
    expect(allocationCandidates(all, none, request).candidates).toHaveLength(1);
    expect(allocationCandidates(all, none, { ...request, oneProviderPerTree: true }).candidates).toEqual([]);
  });

  it("counts what is used, and judges traits, aggregates, in_tree and limit", () => {
    const used = new Map([["cn2", { VCPU: 4 }]]);
    expect(allocationCandidates(all, used, one({ VCPU: 1 })).candidates).toHaveLength(1);
    const allocationsOf = (request: CandidateRequest) =>
      allocationCandidates(all, none, request).candidates.map((c) => c.allocations);
    expect(allocationsOf(one({ VCPU: 1 }, { required: [["HW_CPU_X86_SSE"]] }))).toEqual([
      { cn1: { VCPU: 1 } },
    ]);
    expect(allocationsOf(one({ VCPU: 1 }, { forbidden: ["HW_CPU_X86_SSE"] }))).toEqual([
      { cn2: { VCPU: 1 } },
    ]);
    expect(allocationsOf(one({ VCPU: 1 }, { notMemberOf: ["agg"] }))).toHaveLength(1);
    // The root's aggregate covers its child; the sharing provider is in it too.
    expect(allocationsOf(one({ SRIOV_NET_VF: 1, DISK_GB: 10 }, { memberOf: [["agg"]] }))).toEqual([
      { pf1: { SRIOV_NET_VF: 1 }, ss: { DISK_GB: 10 } },
    ]);
    expect(allocationsOf({ ...one({ VCPU: 1 }), limit: 1 })).toHaveLength(1);
    expect(allocationsOf(one({ VCPU: 1, DISK_GB: 10 }, { inTree: "pf1" }))).toEqual([]);
    expect(allocationsOf(one({ VCPU: 1 }, { inTree: "nowhere" }))).toEqual([]);
  });
});

/** A host with two NUMA nodes, each with CPUs and one FPGA below it. */
const host = provider("host", null, "host", { traits: ["COMPUTE_VOLUME_MULTI_ATTACH"] });
const numa0 = provider("numa0", "host", "host", { inventories: { VCPU: inventory(4) } });
const numa1 = provider("numa1", "host", "host", { inventories: { VCPU: inventory(4) } });
const fpga0 = provider("fpga0", "numa0", "host", { inventories: { FPGA: inventory(1) } });
const fpga1 = provider("fpga1", "numa1", "host", { inventories: { FPGA: inventory(1) } });
const other = provider("other", null, "other", { inventories: { VCPU: inventory(2) } });
const numa = [host, numa0, numa1, fpga0, fpga1, other];

const groups = (...list: RequestGroup[]) => list;
const mappingsOf = (request: CandidateRequest) =>
  allocationCandidates(numa, none, request).candidates.map((c) => c.mappings);

describe("allocation candidates with request groups", () => {
  it("gives each suffixed group one provider, and may give several groups the same one", () => {
    const request: CandidateRequest = {
      groups: groups({ suffix: "1", resources: { VCPU: 1 } }, { suffix: "2", resources: { VCPU: 1 } }),
      groupPolicy: "none",
    };
    // Per tree: numa0/numa0, numa0/numa1, numa1/numa0, numa1/numa1; then other/other.
    expect(mappingsOf(request)).toEqual([
      { "1": ["numa0"], "2": ["numa0"] },
      { "1": ["numa0"], "2": ["numa1"] },
      { "1": ["numa1"], "2": ["numa0"] },
      { "1": ["numa1"], "2": ["numa1"] },
      { "1": ["other"], "2": ["other"] },
    ]);
    const same = allocationCandidates(numa, none, request).candidates[0];
    expect(same?.allocations).toEqual({ numa0: { VCPU: 2 } });
  });

  it("keeps suffixed groups on distinct providers with group_policy=isolate", () => {
    const request: CandidateRequest = {
      groups: groups({ suffix: "1", resources: { VCPU: 1 } }, { suffix: "2", resources: { VCPU: 1 } }),
      groupPolicy: "isolate",
    };
    expect(mappingsOf(request)).toEqual([
      { "1": ["numa0"], "2": ["numa1"] },
      { "1": ["numa1"], "2": ["numa0"] },
    ]);
  });

  it("refuses a combination whose summed amounts exceed a provider", () => {
    const request: CandidateRequest = {
      groups: groups({ suffix: "1", resources: { VCPU: 3 } }, { suffix: "2", resources: { VCPU: 2 } }),
      groupPolicy: "none",
    };
    expect(mappingsOf(request)).toEqual([
      { "1": ["numa0"], "2": ["numa1"] },
      { "1": ["numa1"], "2": ["numa0"] },
    ]);
  });

  it("needs every group in the same tree", () => {
    const request: CandidateRequest = {
      groups: groups({ suffix: "", resources: { VCPU: 1 } }, { suffix: "_ACCEL", resources: { FPGA: 1 } }),
    };
    const answer = allocationCandidates(numa, none, request);
    expect(answer.candidates.every((c) => c.allocations.other === undefined)).toBe(true);
    expect(answer.candidates).toHaveLength(4);
    expect(answer.providers.map((p) => p.uuid)).toEqual(["host", "numa0", "numa1", "fpga0", "fpga1"]);
  });

  it("keeps same_subtree groups under one of their providers", () => {
    const request: CandidateRequest = {
      groups: groups(
        { suffix: "_CPU", resources: { VCPU: 1 } },
        { suffix: "_ACCEL", resources: { FPGA: 1 } },
      ),
      groupPolicy: "none",
      sameSubtree: [["_CPU", "_ACCEL"]],
    };
    expect(mappingsOf(request)).toEqual([
      { _CPU: ["numa0"], _ACCEL: ["fpga0"] },
      { _CPU: ["numa1"], _ACCEL: ["fpga1"] },
    ]);
  });

  it("lets a resourceless group name the common ancestor", () => {
    const request: CandidateRequest = {
      groups: groups(
        { suffix: "_A", resources: { FPGA: 1 } },
        { suffix: "_B", resources: { FPGA: 1 } },
        { suffix: "_NUMA", resources: {}, memberOf: [], required: [] },
      ),
      groupPolicy: "isolate",
      sameSubtree: [["_A", "_B", "_NUMA"]],
    };
    // Only the host is above both FPGAs (the NUMA nodes each hold one).
    expect(mappingsOf(request)).toEqual([
      { _A: ["fpga0"], _B: ["fpga1"], _NUMA: ["host"] },
      { _A: ["fpga1"], _B: ["fpga0"], _NUMA: ["host"] },
    ]);
    // The host is named in the mappings only: it gives nothing, so it has no allocation.
    const allocations = allocationCandidates(numa, none, request).candidates.map((c) => c.allocations);
    expect(allocations).toEqual([
      { fpga0: { FPGA: 1 }, fpga1: { FPGA: 1 } },
      { fpga1: { FPGA: 1 }, fpga0: { FPGA: 1 } },
    ]);
  });

  it("judges a suffixed group's traits on its own provider, the unsuffixed group's on the providers it uses", () => {
    const multiAttach = [["COMPUTE_VOLUME_MULTI_ATTACH"]];
    const suffixed = { groups: groups({ suffix: "1", resources: { VCPU: 1 }, required: multiAttach }) };
    expect(mappingsOf(suffixed)).toEqual([]);
    // The host gives nothing, so its trait does not count for the unsuffixed group either ...
    expect(mappingsOf(one({ VCPU: 1 }, { required: multiAttach }))).toEqual([]);
    // ... but root_required judges the root of the tree.
    expect(mappingsOf({ ...one({ VCPU: 1 }), rootRequired: ["COMPUTE_VOLUME_MULTI_ATTACH"] })).toEqual([
      { "": ["numa0"] },
      { "": ["numa1"] },
    ]);
    expect(mappingsOf({ ...one({ VCPU: 1 }), rootForbidden: ["COMPUTE_VOLUME_MULTI_ATTACH"] })).toEqual([
      { "": ["other"] },
    ]);
  });

  it("gives a sharing provider's lone candidate once, whichever tree it lends to", () => {
    const disk = (suffix: string) => ({ groups: groups({ suffix, resources: { DISK_GB: 10 } }) });
    for (const suffix of ["", "1"])
      expect(allocationCandidates(all, none, disk(suffix)).candidates.map((c) => c.allocations)).toEqual([
        { ss: { DISK_GB: 10 } },
        { cn2: { DISK_GB: 10 } },
      ]);
  });

  it("lends a sharing provider to a suffixed group of any tree in its aggregate", () => {
    const request: CandidateRequest = {
      groups: groups({ suffix: "", resources: { VCPU: 1 } }, { suffix: "1", resources: { DISK_GB: 10 } }),
    };
    const answer = allocationCandidates(all, none, request);
    expect(answer.candidates.map((c) => c.mappings)).toEqual([
      { "": ["cn1"], "1": ["ss"] },
      { "": ["cn2"], "1": ["cn2"] },
    ]);
  });
});
