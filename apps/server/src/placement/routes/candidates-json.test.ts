import type { CandidateAnswer, ProviderRecord } from "@berth/engine";
import { describe, expect, it } from "vitest";
import { candidatesJson } from "./candidates-json.js";

const inventory = (total: number, allocationRatio = 1) => ({
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio,
});

const cn1: ProviderRecord = {
  uuid: "c0000000-0000-4000-8000-000000000001",
  name: "cn1",
  parentUuid: null,
  rootUuid: "c0000000-0000-4000-8000-000000000001",
  generation: 3,
  inventories: { VCPU: inventory(8, 1.5), DISK_GB: inventory(100) },
  traits: ["CUSTOM_GOLD", "HW_CPU_X86_AVX2"],
  aggregates: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const pf1: ProviderRecord = {
  ...cn1,
  uuid: "c0000000-0000-4000-8000-000000000002",
  name: "pf1",
  parentUuid: cn1.uuid,
  inventories: { SRIOV_NET_VF: inventory(4) },
  traits: [],
};

const answerOf = (providers: ProviderRecord[]): CandidateAnswer => ({
  candidates: [
    {
      allocations: { [cn1.uuid]: { VCPU: 2 }, [pf1.uuid]: { SRIOV_NET_VF: 1 } },
      mappings: { "": [cn1.uuid], _NET: [pf1.uuid] },
    },
  ],
  providers,
  usage: new Map([[cn1.uuid, { VCPU: 3 }]]),
});

const requested = new Set(["VCPU", "SRIOV_NET_VF"]);
const at = (minor: number, answer = answerOf([cn1, pf1])) =>
  JSON.parse(candidatesJson(answer, { major: 1, minor }, requested).toString()) as Record<string, unknown>;

describe("the allocation candidates answer as JSON text", () => {
  it("lists each candidate's providers before 1.12, keys them from 1.12, adds mappings from 1.34", () => {
    expect(at(10).allocation_requests).toEqual([
      {
        allocations: [
          { resource_provider: { uuid: cn1.uuid }, resources: { VCPU: 2 } },
          { resource_provider: { uuid: pf1.uuid }, resources: { SRIOV_NET_VF: 1 } },
        ],
      },
    ]);
    const keyed = { [cn1.uuid]: { resources: { VCPU: 2 } }, [pf1.uuid]: { resources: { SRIOV_NET_VF: 1 } } };
    expect(at(12).allocation_requests).toEqual([{ allocations: keyed }]);
    expect(at(34).allocation_requests).toEqual([
      { allocations: keyed, mappings: { "": [cn1.uuid], _NET: [pf1.uuid] } },
    ]);
  });

  it("summarises the requested classes before 1.27, traits from 1.17, every class from 1.27, the tree from 1.29", () => {
    expect(at(10).provider_summaries).toEqual({
      [cn1.uuid]: { resources: { VCPU: { capacity: 12, used: 3 } } },
      [pf1.uuid]: { resources: { SRIOV_NET_VF: { capacity: 4, used: 0 } } },
    });
    // Standard traits before custom ones, as Placement creates them.
    expect(at(17).provider_summaries).toMatchObject({
      [cn1.uuid]: { traits: ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"] },
      [pf1.uuid]: { traits: [] },
    });
    expect(at(27).provider_summaries).toMatchObject({
      [cn1.uuid]: {
        resources: { VCPU: { capacity: 12, used: 3 }, DISK_GB: { capacity: 100, used: 0 } },
      },
    });
    expect(at(29).provider_summaries).toEqual({
      [cn1.uuid]: {
        resources: { VCPU: { capacity: 12, used: 3 }, DISK_GB: { capacity: 100, used: 0 } },
        traits: ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"],
        parent_provider_uuid: null,
        root_provider_uuid: cn1.uuid,
      },
      [pf1.uuid]: {
        resources: { SRIOV_NET_VF: { capacity: 4, used: 0 } },
        traits: [],
        parent_provider_uuid: cn1.uuid,
        root_provider_uuid: cn1.uuid,
      },
    });
  });

  it("follows the microversion and the row after the first answer (kept parts never go stale)", () => {
    const at29 = at(29);
    expect(Object.keys(at(27).provider_summaries as object)).toEqual([cn1.uuid, pf1.uuid]);
    expect((at(27).provider_summaries as Record<string, object>)[cn1.uuid]).not.toHaveProperty(
      "root_provider_uuid",
    );
    expect(at(29)).toEqual(at29);
    // Use that moved shows in the next answer.
    const busier = { ...answerOf([cn1, pf1]), usage: new Map([[cn1.uuid, { VCPU: 5 }]]) };
    expect((at(29, busier).provider_summaries as Record<string, object>)[cn1.uuid]).toMatchObject({
      resources: { VCPU: { capacity: 12, used: 5 } },
    });
    expect(at(29)).toEqual(at29);
    // A change of the provider is a new row: its summary shows the new inventories.
    const grown = { ...cn1, inventories: { VCPU: inventory(16) } };
    expect((at(29, answerOf([grown, pf1])).provider_summaries as Record<string, object>)[cn1.uuid]).toEqual({
      resources: { VCPU: { capacity: 16, used: 3 } },
      traits: ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"],
      parent_provider_uuid: null,
      root_provider_uuid: cn1.uuid,
    });
  });

  it("writes a lone provider's request for the amounts and shape asked now (kept entries never go stale)", () => {
    const lone = (amounts: Record<string, number>): CandidateAnswer => ({
      candidates: [{ allocations: { [cn1.uuid]: amounts }, mappings: { "": [cn1.uuid] } }],
      providers: [cn1],
      usage: new Map(),
      alone: true,
    });
    const requestsAt = (minor: number, amounts: Record<string, number>) =>
      (
        JSON.parse(candidatesJson(lone(amounts), { major: 1, minor }, requested).toString()) as Record<
          string,
          unknown
        >
      ).allocation_requests;
    const entry = (vcpu: number) => ({
      allocations: { [cn1.uuid]: { resources: { VCPU: vcpu } } },
      mappings: { "": [cn1.uuid] },
    });
    expect(requestsAt(39, { VCPU: 2 })).toEqual([entry(2)]);
    expect(requestsAt(39, { VCPU: 1 })).toEqual([entry(1)]);
    expect(requestsAt(39, { VCPU: 2 })).toEqual([entry(2)]);
    expect(requestsAt(33, { VCPU: 2 })).toEqual([{ allocations: entry(2).allocations }]);
    expect(requestsAt(10, { VCPU: 2 })).toEqual([
      { allocations: [{ resource_provider: { uuid: cn1.uuid }, resources: { VCPU: 2 } }] },
    ]);
    // A candidate that is not the listed provider's alone is written in full, not from that provider's entry.
    const elsewhere: CandidateAnswer = {
      candidates: [{ allocations: { [pf1.uuid]: { SRIOV_NET_VF: 1 } }, mappings: { "": [pf1.uuid] } }],
      providers: [cn1],
      usage: new Map(),
    };
    expect(
      (
        JSON.parse(candidatesJson(elsewhere, { major: 1, minor: 39 }, requested).toString()) as Record<
          string,
          unknown
        >
      ).allocation_requests,
    ).toEqual([
      { allocations: { [pf1.uuid]: { resources: { SRIOV_NET_VF: 1 } } }, mappings: { "": [pf1.uuid] } },
    ]);
  });
});
