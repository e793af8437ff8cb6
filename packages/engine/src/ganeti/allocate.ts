/**
 * Placing one instance on a handed-in cluster: every allowed group is
 * tried, every usable member (or, for a mirrored instance, every primary
 * and secondary pair on two members of the group) is checked, feasible
 * choices are ranked by the group's balance after the placement, and the
 * best one that keeps the group able to survive any member failing wins.
 * Groups are ranked preferred before last-resort, then by that balance.
 */
import { primaryFailure, secondaryFailure } from "./checks.js";
import type { PlacedInstance, SnapshotCluster, SnapshotGroup, SnapshotNode } from "./cluster.js";
import { compareKeys, isDedicated, lostAllocations } from "./dedicated.js";
import { policyFailure } from "./policy.js";
import { groupSurvivesAnyFailure } from "./redundancy.js";
import { type GroupBalance, metricsOf } from "./score.js";
import {
  diskSpindles,
  diskTotal,
  type FailMode,
  type InstanceSpec,
  membersNeeded,
  usesLocalStorage,
} from "./spec.js";

/** Where a search may look: one group, some members, not these members, these groups. */
export interface PlacementLimits {
  /** Only this group (by name or id). */
  readonly group?: string;
  /** Only these members (Ganeti's `restrict-to-nodes`). */
  readonly restrictTo?: ReadonlySet<string>;
  /** Never these members (an instance's current ones). */
  readonly exclude?: ReadonlySet<string>;
  /** Only these groups (by id): `change-group`'s targets. */
  readonly groups?: ReadonlySet<string>;
}

/** What trying one group found. */
export interface GroupAttempt {
  /** The group tried. */
  readonly group: SnapshotGroup;
  /** The group lacks a network the instance's NICs use: it was not tried. */
  readonly unconnected: boolean;
  /** Members (or pairs) that fit. */
  readonly successes: number;
  /** Members (or pairs) turned down, counted per reason. */
  readonly failures: ReadonlyMap<FailMode, number>;
  /** The chosen members (primary first) and the balance after, when any choice fits. */
  readonly choice?: {
    /** The chosen node names: the primary, then the secondary for a mirrored instance. */
    readonly nodes: readonly string[];
    /** The group's balance score with the instance there (hail's cluster score; lower is better). */
    readonly score: number;
  };
}

/** What a search for one instance found: every group tried and the winning choice, if any. */
export interface PlacementSearch {
  /** The instance searched for. */
  readonly spec: InstanceSpec;
  /** Tried groups, in cluster order. */
  readonly attempts: readonly GroupAttempt[];
  /** The winning attempt, or undefined when nothing fits. */
  readonly chosen?: GroupAttempt & {
    /** The winning choice (always present on the chosen attempt). */
    readonly choice: {
      /** The chosen node names: the primary, then the secondary for a mirrored instance. */
      nodes: readonly string[];
      /** The group's balance score with the instance there (lower is better). */
      score: number;
    };
  };
}

const POLICY_RANK = { preferred: 0, last_resort: 1, unallocable: 2 } as const;

/** Above this many usable members, pairs are sought from the best few primaries only. */
const EXHAUSTIVE_PAIRS_UP_TO = 40;
const PRIMARIES_TRIED = 8;
const SECONDARIES_TRIED = 16;

interface Option {
  nodes: SnapshotNode[];
  score: number;
}

class FailureCount {
  readonly counts = new Map<FailMode, number>();
  add(mode: FailMode, by = 1): void {
    this.counts.set(mode, (this.counts.get(mode) ?? 0) + by);
  }
}

function candidatesOf(
  cluster: SnapshotCluster,
  group: SnapshotGroup,
  limits: PlacementLimits,
): SnapshotNode[] {
  return cluster
    .nodesOf(group.id)
    .filter(
      (node) =>
        node.input.usable &&
        (limits.restrictTo === undefined || limits.restrictTo.has(node.name)) &&
        !(limits.exclude?.has(node.name) ?? false),
    );
}

/** Extra score for failure domains: a pair sharing one, a primary outside the desired one. */
function locationPenalty(
  cluster: SnapshotCluster,
  spec: InstanceSpec,
  nodes: readonly SnapshotNode[],
): number {
  let penalty = 0;
  const [primary, secondary] = nodes;
  if (primary === undefined) return 0;
  if (secondary !== undefined && cluster.locationPrefixes.length > 0) {
    const here = new Set(cluster.locationsOf(primary));
    if (cluster.locationsOf(secondary).some((tag) => here.has(tag))) penalty += 1;
  }
  const desired = cluster.desiredLocationsOf(spec);
  if (desired.length > 0 && !desired.every((tag) => primary.input.tags.includes(tag))) penalty += 1;
  return penalty;
}

/** One group being tried for one instance: what every option search reads. */
interface GroupTrial {
  readonly cluster: SnapshotCluster;
  readonly spec: InstanceSpec;
  readonly group: SnapshotGroup;
  readonly candidates: readonly SnapshotNode[];
  readonly balance: GroupBalance;
  readonly failures: FailureCount;
}

function singleOptions(
  { cluster, spec, group, candidates, balance, failures }: GroupTrial,
  /** How many choices a refused node stands for (a refused primary rules out every pair it heads). */
  weight = 1,
): Option[] {
  const exclusion = cluster.exclusionTagsOf(spec.tags);
  const disk = usesLocalStorage(spec.template) ? diskTotal(spec) : 0;
  const options: Option[] = [];
  for (const node of candidates) {
    const why = primaryFailure(node, spec, group, exclusion);
    if (why !== undefined) {
      failures.add(why, weight);
      continue;
    }
    const before = metricsOf(node);
    const after = metricsOf(node, { memory: spec.memory, disk, cpus: spec.vcpus });
    const score = balance.scoreWith({ before, after }) + locationPenalty(cluster, spec, [node]);
    options.push({ nodes: [node], score });
  }
  return options;
}

/**
 * The secondaries worth pairing: those that could mirror the instance for
 * some primary (disk, spindles, room for its memory), best by their own
 * share of the balance.
 */
function secondaryShortlist(
  spec: InstanceSpec,
  group: SnapshotGroup,
  candidates: readonly SnapshotNode[],
  balance: GroupBalance,
  disk: number,
): SnapshotNode[] {
  const fit = candidates.filter((node) => secondaryFailure(node, "", spec, group) === undefined);
  const scored = fit.map((node) => {
    const reserved = Math.max(node.reservedMemory, spec.memory);
    return {
      node,
      score: balance.scoreWith({ before: metricsOf(node), after: metricsOf(node, { disk, reserved }) }),
    };
  });
  scored.sort((a, b) => a.score - b.score);
  return scored.slice(0, SECONDARIES_TRIED).map(({ node }) => node);
}

/**
 * Every primary and secondary pair in small groups; in large ones the best
 * few primaries (by their own balance) with the best few secondaries, so a
 * pair costs O(members), not O(members²).
 */
function pairOptions(trial: GroupTrial): Option[] {
  const { cluster, spec, group, candidates, balance, failures } = trial;
  let primaries = singleOptions(trial, Math.max(candidates.length - 1, 1));
  const disk = usesLocalStorage(spec.template) ? diskTotal(spec) : 0;
  let secondaries = candidates;
  if (candidates.length > EXHAUSTIVE_PAIRS_UP_TO) {
    primaries = [...primaries].sort((a, b) => a.score - b.score).slice(0, PRIMARIES_TRIED);
    secondaries = secondaryShortlist(spec, group, candidates, balance, disk);
  }
  const options: Option[] = [];
  for (const { nodes } of primaries) {
    const primary = nodes[0]!;
    const primaryChange = {
      before: metricsOf(primary),
      after: metricsOf(primary, { memory: spec.memory, disk, cpus: spec.vcpus }),
    };
    for (const secondary of secondaries) {
      if (secondary === primary) continue;
      const why = secondaryFailure(secondary, primary.name, spec, group);
      if (why !== undefined) {
        failures.add(why);
        continue;
      }
      const reserved = Math.max(secondary.reservedMemory, secondary.peerMemory(primary.name) + spec.memory);
      const secondaryChange = {
        before: metricsOf(secondary),
        after: metricsOf(secondary, { disk, reserved }),
      };
      const score =
        balance.scoreWith(primaryChange, secondaryChange) +
        locationPenalty(cluster, spec, [primary, secondary]);
      options.push({ nodes: [primary, secondary], score });
    }
  }
  return options;
}

/** Tries one group; the returned choice has been checked for redundancy but is not applied. */
function attemptGroup(
  cluster: SnapshotCluster,
  spec: InstanceSpec,
  group: SnapshotGroup,
  limits: PlacementLimits,
): GroupAttempt {
  const candidates = candidatesOf(cluster, group, limits);
  const failures = new FailureCount();
  const needed = membersNeeded(spec.template);
  const policy = policyFailure(group.policy, spec, isDedicated(candidates));
  if (policy !== undefined) {
    const combinations = needed === 1 ? candidates.length : candidates.length * (candidates.length - 1);
    if (combinations > 0) failures.add(policy, combinations);
    return { group, unconnected: false, successes: 0, failures: failures.counts };
  }
  const balance = cluster.balanceOf(group.id);
  const trial: GroupTrial = { cluster, spec, group, candidates, balance, failures };
  const options = needed === 1 ? singleOptions(trial) : pairOptions(trial);
  if (needed === 1 && isDedicated(candidates)) {
    const disk = usesLocalStorage(spec.template) ? diskTotal(spec) : 0;
    const taken = { memory: spec.memory, disk, spindles: diskSpindles(spec) ?? 0 };
    const keys = new Map(options.map((o) => [o, lostAllocations(o.nodes[0]!, group.policy, taken)]));
    options.sort((a, b) => compareKeys(keys.get(a)!, keys.get(b)!));
  } else options.sort((a, b) => a.score - b.score);
  const successes = options.length;
  if (options.length > 0 && !groupSurvivesAnyFailure(cluster, group.id)) {
    // Adding an instance never adds room: a group that cannot survive a failure now never will.
    failures.add("FailN1", options.length);
    return { group, unconnected: false, successes: 0, failures: failures.counts };
  }
  for (const option of options) {
    const names = option.nodes.map((node) => node.name);
    const trial = cluster.addNew(spec, names);
    const survives = groupSurvivesAnyFailure(cluster, group.id);
    cluster.remove(trial);
    if (survives) {
      return {
        group,
        unconnected: false,
        successes,
        failures: failures.counts,
        choice: { nodes: names, score: option.score },
      };
    }
    failures.add("FailN1");
  }
  return { group, unconnected: false, successes: 0, failures: failures.counts };
}

function groupsTried(cluster: SnapshotCluster, limits: PlacementLimits): SnapshotGroup[] {
  return [...cluster.groups.values()].filter(
    (group) =>
      group.allocPolicy !== "unallocable" &&
      (limits.group === undefined || group.name === limits.group || group.id === limits.group) &&
      (limits.groups === undefined || limits.groups.has(group.id)),
  );
}

/** Finds where `spec` would go, without placing it. */
export function searchPlacement(
  cluster: SnapshotCluster,
  spec: InstanceSpec,
  limits: PlacementLimits = {},
): PlacementSearch {
  const attempts: GroupAttempt[] = [];
  for (const group of groupsTried(cluster, limits)) {
    const connected = spec.networks.every((network) => group.networks.includes(network));
    if (!connected) {
      attempts.push({ group, unconnected: true, successes: 0, failures: new Map() });
      continue;
    }
    attempts.push(attemptGroup(cluster, spec, group, limits));
  }
  let chosen: PlacementSearch["chosen"];
  for (const attempt of attempts) {
    if (attempt.choice === undefined) continue;
    if (
      chosen === undefined ||
      POLICY_RANK[attempt.group.allocPolicy] < POLICY_RANK[chosen.group.allocPolicy] ||
      (attempt.group.allocPolicy === chosen.group.allocPolicy && attempt.choice.score < chosen.choice.score)
    ) {
      chosen = attempt as PlacementSearch["chosen"];
    }
  }
  return chosen === undefined ? { spec, attempts } : { spec, attempts, chosen };
}

/** Finds where `spec` goes and places it there (the cluster changes); the search says what happened. */
export function placeInstance(
  cluster: SnapshotCluster,
  spec: InstanceSpec,
  limits: PlacementLimits = {},
): PlacementSearch & {
  /** The instance as now placed in the cluster; absent when nothing fits. */
  placed?: PlacedInstance;
} {
  const search = searchPlacement(cluster, spec, limits);
  if (search.chosen === undefined) return search;
  return { ...search, placed: cluster.addNew(spec, search.chosen.choice.nodes) };
}
