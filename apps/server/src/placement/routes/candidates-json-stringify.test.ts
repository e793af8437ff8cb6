/**
 * The written answer is byte for byte JSON.stringify of Placement's object
 * form (the form this route answered before it was written as text), over
 * answers of the engine's own search: lone trees, nested trees, sharing
 * providers, traits, several groups, `limit`, names that need escaping, and
 * every microversion where the shape changes.
 */
import {
  allocationCandidates,
  type Candidate,
  type CandidateAnswer,
  type CandidateRequest,
  type ProviderRecord,
} from "@berth/engine";
import { inventory } from "@berth/engine/testing";
import { displayedCapacity, type Inventory } from "@berth/resources";
import { describe, expect, it } from "vitest";
import { atLeast, type Microversion } from "../microversion.js";
import { candidatesJson } from "./candidates-json.js";

let clock = 0;
const provider = (
  uuid: string,
  parent: ProviderRecord | null,
  extra: Partial<ProviderRecord>,
): ProviderRecord => ({
  uuid,
  name: uuid,
  parentUuid: parent?.uuid ?? null,
  rootUuid: parent?.rootUuid ?? uuid,
  generation: 1,
  inventories: {},
  traits: [],
  aggregates: [],
  createdAt: String(clock++).padStart(6, "0"),
  updatedAt: "",
  ...extra,
});

const compute = (uuid: string, extra: Partial<ProviderRecord> = {}) =>
  provider(uuid, null, {
    inventories: {
      VCPU: inventory(64, { allocationRatio: 1.5 }),
      MEMORY_MB: inventory(262144, { reserved: 512 }),
      DISK_GB: inventory(2000),
    },
    ...extra,
  });
const plain = Array.from({ length: 12 }, (_, index) =>
  compute(`c0000000-0000-4000-8000-${String(index).padStart(12, "0")}`, {
    traits:
      index % 3 === 0
        ? ["CUSTOM_GOLD", "HW_CPU_X86_AVX2"]
        : index % 3 === 1
          ? ["COMPUTE_STATUS_DISABLED"]
          : [],
    aggregates: index % 2 === 0 ? ["agg-even"] : [],
  }),
);
const host = compute("host-with-nics", { traits: ["CUSTOM_Z", "STORAGE_DISK_SSD"] });
const nic = provider("nic-under-host", host, {
  inventories: { SRIOV_NET_VF: inventory(8) },
  traits: ["CUSTOM_PHYSNET_A"],
});
const numa = provider("numa-under-nic", nic, { inventories: { VCPU: inventory(4), FPGA: inventory(1) } });
const sharing = provider("shared-disk", null, {
  inventories: { DISK_GB: inventory(10000, { allocationRatio: 1.01 }) },
  traits: ["MISC_SHARES_VIA_AGGREGATE"],
  aggregates: ["agg-even"],
});
// Names a client could give that JSON must escape: a quote, a backslash, a control character, non-ASCII.
const odd = compute('odd "name" \\ \u0001 é 雪', { traits: ["CUSTOM_ÉTÉ"] });
const providers = [...plain, host, nic, numa, sharing, odd];

const usage = new Map<string, Record<string, number>>(
  providers.map((p, index): [string, Record<string, number>] => [
    p.uuid,
    index % 4 === 0 ? {} : { VCPU: index * 2, DISK_GB: index * 40 },
  ]),
);

/** Placement's object form of one `allocation_requests` entry (the route's former code). */
function requestObject(candidate: Candidate, version: Microversion): object {
  const { allocations } = candidate;
  if (!atLeast(version, 12))
    return {
      allocations: Object.keys(allocations).map((uuid) => ({
        resource_provider: { uuid },
        resources: allocations[uuid],
      })),
    };
  const byProvider: Record<string, object> = {};
  for (const uuid of Object.keys(allocations)) byProvider[uuid] = { resources: allocations[uuid] };
  return atLeast(version, 34)
    ? { allocations: byProvider, mappings: candidate.mappings }
    : { allocations: byProvider };
}

/** Placement's object form of one provider summary. */
function summaryObject(
  p: ProviderRecord,
  used: Readonly<Record<string, number>>,
  version: Microversion,
  requested: ReadonlySet<string>,
): object {
  const resources: Record<string, object> = {};
  for (const resourceClass of Object.keys(p.inventories))
    if (atLeast(version, 27) || requested.has(resourceClass))
      resources[resourceClass] = {
        capacity: displayedCapacity(p.inventories[resourceClass] as Inventory),
        used: used[resourceClass] ?? 0,
      };
  const summary: Record<string, unknown> = { resources };
  const custom = (t: string) => t.startsWith("CUSTOM_");
  if (atLeast(version, 17))
    summary.traits = [...p.traits.filter((t) => !custom(t)), ...p.traits.filter(custom)];
  if (atLeast(version, 29)) {
    summary.parent_provider_uuid = p.parentUuid;
    summary.root_provider_uuid = p.rootUuid;
  }
  return summary;
}

function objectForm(answer: CandidateAnswer, version: Microversion, requested: ReadonlySet<string>): string {
  const summaries: Record<string, object> = {};
  for (const p of answer.providers)
    summaries[p.uuid] = summaryObject(p, answer.usage.get(p.uuid) ?? {}, version, requested);
  return JSON.stringify({
    allocation_requests: answer.candidates.map((candidate) => requestObject(candidate, version)),
    provider_summaries: summaries,
  });
}

const group = (
  suffix: string,
  resources: Record<string, number>,
  extra: Partial<CandidateRequest["groups"][number]> = {},
) => ({
  suffix,
  resources,
  ...extra,
});
const requests: CandidateRequest[] = [
  { groups: [group("", { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 })] },
  { groups: [group("", { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 })], limit: 3 },
  { groups: [group("", { VCPU: 1 }, { required: [["CUSTOM_GOLD"]] })] },
  { groups: [group("", { VCPU: 1 }, { forbidden: ["COMPUTE_STATUS_DISABLED"] })] },
  { groups: [group("", { VCPU: 1, DISK_GB: 100 }, { memberOf: [["agg-even"]] })] },
  { groups: [group("", { VCPU: 1, SRIOV_NET_VF: 1, FPGA: 1 })] },
  {
    groups: [
      group("", { VCPU: 1 }),
      group("_NET", { SRIOV_NET_VF: 2 }, { required: [["CUSTOM_PHYSNET_A"]] }),
    ],
    groupPolicy: "isolate",
  },
  {
    groups: [group("1", { VCPU: 1 }), group("2", { FPGA: 1 })],
    groupPolicy: "none",
    rootRequired: ["STORAGE_DISK_SSD"],
  },
  { groups: [group("", { VCPU: 1 })], oneProviderPerTree: true },
  { groups: [group("", { DISK_GB: 10 })] },
];
const versions = [10, 12, 16, 17, 26, 27, 28, 29, 33, 34, 35, 36, 39].map((minor) => ({ major: 1, minor }));

describe("the written candidates answer", () => {
  it("is JSON.stringify of Placement's object form, for every request and microversion", () => {
    let compared = 0;
    let mostProviders = 0;
    let mostGroups = 0;
    for (const request of requests) {
      const answer = allocationCandidates(providers, usage, request);
      for (const { allocations, mappings } of answer.candidates) {
        mostProviders = Math.max(mostProviders, Object.keys(allocations).length);
        mostGroups = Math.max(mostGroups, Object.keys(mappings).length);
      }
      const requested = new Set(request.groups.flatMap((g) => Object.keys(g.resources)));
      for (const version of versions) {
        const written = candidatesJson(answer, version, requested);
        expect(written.toString("utf8"), `${JSON.stringify(request)} at 1.${version.minor}`).toBe(
          objectForm(answer, version, requested),
        );
        expect(written.length).toBe(Buffer.byteLength(objectForm(answer, version, requested)));
        compared += answer.candidates.length;
      }
    }
    expect(compared).toBeGreaterThan(500);
    // Candidates spread over several providers (a tree, a sharing provider) and several groups were written too.
    expect(mostProviders).toBeGreaterThanOrEqual(3);
    expect(mostGroups).toBe(2);
  });

  it("shows use that moved between two answers (summaries kept per provider, never per query)", () => {
    const request = requests[0] as CandidateRequest;
    const version = { major: 1, minor: 39 };
    const requested = new Set(["VCPU", "MEMORY_MB", "DISK_GB"]);
    const first = allocationCandidates(providers, usage, request);
    expect(candidatesJson(first, version, requested).toString()).toBe(objectForm(first, version, requested));
    const claimed = new Map(usage);
    claimed.set(plain[1]?.uuid as string, { VCPU: 90, MEMORY_MB: 4096, DISK_GB: 1000 });
    const second = allocationCandidates(providers, claimed, request);
    const text = candidatesJson(second, version, requested).toString();
    expect(text).toBe(objectForm(second, version, requested));
    expect(text).not.toBe(candidatesJson(first, version, requested).toString());
  });

  it("writes answers of lone trees right across claims, providers that stop fitting, other amounts and versions", () => {
    const lonely = plain.slice(0, 8);
    const requested = new Set(["VCPU", "MEMORY_MB", "DISK_GB"]);
    const ask = (resources: Record<string, number>, used: Map<string, Record<string, number>>) =>
      allocationCandidates(lonely, used, { groups: [group("", resources)] });
    const small = { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 };
    const big = { VCPU: 64, MEMORY_MB: 4096, DISK_GB: 40 };
    const full = new Map(usage);
    full.set(plain[2]?.uuid as string, { VCPU: 95 });
    expect(ask(small, full).candidates.length).toBe(ask(small, usage).candidates.length - 1);
    let lone = 0;
    for (const [resources, used, minor] of [
      [small, usage, 39],
      [small, usage, 39],
      [small, full, 39],
      [small, usage, 39],
      [big, usage, 39],
      [small, usage, 12],
      [small, usage, 10],
      [small, usage, 39],
    ] as const) {
      const answer = ask(resources, used);
      if (answer.alone === true) lone += 1;
      const version = { major: 1, minor };
      expect(
        candidatesJson(answer, version, requested).toString(),
        `${JSON.stringify(resources)} 1.${minor}`,
      ).toBe(objectForm(answer, version, requested));
    }
    expect(lone).toBe(8);
  });
});
