/**
 * Placement groups (spread/compact x strict/permissive), per member or,
 * with the group config key `topology`, per value of a member topology key
 * (`topology=rack`: the members' `topology.rack`; `failure_domain`: their
 * failure domain; members without the key form one domain of their own).
 *
 * Spread ranks members whose domain hosts fewer of the group's instances
 * first, compact more; within a domain the member hosting fewer (spread)
 * or more (compact) of them, and members the group ranks equal keep the
 * default order (fewest instances, then join order: LXD's tie-breaks).
 * Strict rigor also turns members down: spread those whose domain already
 * hosts the group, compact those whose domain does not (once any does).
 *
 * A stored instance being moved (evacuation, healing, restore, a move,
 * rebalancing) does not count against itself: its own instance is taken
 * off its current member's count, so it may stay within its domain.
 *
 * Every path that places goes through the stack, so this is the one home
 * of the rule: create, bulk (the batch's earlier placements are pending
 * counts in the model), reservations, and every move.
 */
import { topologyValueOf } from "@berth/api-types";
import type { PlacementRequest } from "../../expand/request.js";
import type { ClusterModel } from "../../model/cluster-model.js";
import type { MemberState } from "../../model/member-state.js";
import { placementGroupTopology } from "../../rules/writes/placement-group-config.js";
import type { PlacementGroupRecord } from "../../store/records.js";
import type { Ranker, Ranking } from "../ranker.js";
import { rejection } from "../rejection.js";

/** The domain of members without the topology key (no topology value can be this). */
const NO_VALUE = "\u0000";

/**
 * The group's instances per member, without the moving instance's own one.
 * The model's map is read as it is unless a move must take one off (a copy
 * per create would be work on the hot path for nothing).
 */
function memberCounts(
  request: PlacementRequest,
  model: ClusterModel,
  group: PlacementGroupRecord,
): ReadonlyMap<string, number> {
  const counts = model.groupCountsOf(group.project, group.name);
  const from = request.movingFrom;
  const own = from === null ? 0 : (counts.get(from) ?? 0);
  if (own === 0) return counts;
  const without = new Map(counts);
  without.set(from!, own - 1);
  return without;
}

export const placementGroupRanker: Ranker = {
  name: "placement group",
  rank: (request, model) => {
    const group = request.groupPolicy;
    if (group === null) return null;
    const counts = memberCounts(request, model, group);
    const topology = placementGroupTopology(group);
    return topology === null ? perMember(group, counts) : perDomain(group, counts, topology, model);
  },
};

function perMember(group: PlacementGroupRecord, counts: ReadonlyMap<string, number>): Ranking {
  const countOf = (member: MemberState) => counts.get(member.name) ?? 0;
  const spread = group.policy === "spread";
  const ranking: Ranking = { key: spread ? countOf : (member) => -countOf(member) };
  if (group.rigor !== "strict") return ranking;
  if (spread) {
    const hosts = rejection(
      `spread:${group.name}`,
      `already hosts an instance of placement group "${group.name}" (strict spread)`,
      `already host instances of placement group "${group.name}" (strict spread)`,
    );
    return { ...ranking, reject: (member) => (countOf(member) === 0 ? undefined : hosts) };
  }
  // Strict compact binds to where the group already is; its first instance may go anywhere.
  if (![...counts.values()].some((count) => count > 0)) return ranking;
  const elsewhere = rejection(
    `compact:${group.name}`,
    `does not host placement group "${group.name}" (strict compact)`,
    `do not host placement group "${group.name}" (strict compact)`,
  );
  return { ...ranking, reject: (member) => (countOf(member) > 0 ? undefined : elsewhere) };
}

function perDomain(
  group: PlacementGroupRecord,
  counts: ReadonlyMap<string, number>,
  topology: string,
  model: ClusterModel,
): Ranking {
  const domainOf = (member: MemberState) => topologyValueOf(member.record, topology) ?? NO_VALUE;
  const perDomainCounts = new Map<string, number>();
  let total = 0;
  for (const [name, count] of counts) {
    const member = model.member(name);
    if (member === undefined || count === 0) continue;
    const domain = domainOf(member);
    perDomainCounts.set(domain, (perDomainCounts.get(domain) ?? 0) + count);
    total += count;
  }
  const domainCount = (member: MemberState) => perDomainCounts.get(domainOf(member)) ?? 0;
  const memberCount = (member: MemberState) => counts.get(member.name) ?? 0;
  // The domain decides; the member's own count only orders members within one domain.
  const scale = total + 1;
  const spread = group.policy === "spread";
  const ranking: Ranking = {
    key: spread
      ? (member) => domainCount(member) * scale + memberCount(member)
      : (member) => -(domainCount(member) * scale + memberCount(member)),
  };
  if (group.rigor !== "strict") return ranking;
  const key = `topology key "${topology}"`;
  const inUse = describeValues(perDomainCounts, topology);
  if (spread) {
    const used = rejection(
      `spread:${group.name}`,
      `is in a ${topology} that already holds an instance of placement group "${group.name}" (strict spread over ${key}; values in use: ${inUse})`,
      `are in a ${topology} that already holds an instance of placement group "${group.name}" (strict spread over ${key}; values in use: ${inUse})`,
    );
    return { ...ranking, reject: (member) => (domainCount(member) === 0 ? undefined : used) };
  }
  if (total === 0) return ranking;
  const elsewhere = rejection(
    `compact:${group.name}`,
    `is outside the ${topology} of placement group "${group.name}" (strict compact over ${key}; values in use: ${inUse})`,
    `are outside the ${topology} of placement group "${group.name}" (strict compact over ${key}; values in use: ${inUse})`,
  );
  return { ...ranking, reject: (member) => (domainCount(member) > 0 ? undefined : elsewhere) };
}

/** `"A1", "B1", members without topology.rack`, in a stable order. */
function describeValues(perDomain: ReadonlyMap<string, number>, topology: string): string {
  const values = [...perDomain.keys()].filter((value) => value !== NO_VALUE).sort();
  const said = values.map((value) => JSON.stringify(value));
  if (perDomain.has(NO_VALUE)) {
    said.push(topology === "failure_domain" ? "members without one" : `members without topology.${topology}`);
  }
  return said.join(", ");
}
