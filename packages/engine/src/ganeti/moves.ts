/**
 * Moving instances that already run (Ganeti's `relocate`, `node-evacuate`,
 * `change-group`, `allocate-secondary`). A mirrored instance changes
 * members through its pair: a new secondary, a failover that makes the
 * secondary primary, or both; a non-mirrored one on shared storage moves
 * to any member of its group; one on local storage cannot move.
 */
import { type GroupAttempt, searchPlacement } from "./allocate.js";
import { secondaryFailure } from "./checks.js";
import type { PlacedInstance, SnapshotCluster, SnapshotNode } from "./cluster.js";
import { metricsOf } from "./score.js";
import { diskTotal, type FailMode, isMirrored, usesLocalStorage } from "./spec.js";

/** The steps a move takes, for the protocol to render as its operations. */
export type SnapshotMoveStep =
  | {
      /** Give the mirrored instance a new secondary (Ganeti's replace-disks to a new node). */
      kind: "replace-secondary";
      /** The new secondary. */
      node: string;
    }
  | {
      /** Swap primary and secondary: the secondary runs the instance. */
      kind: "failover";
    }
  | {
      /** Move the non-mirrored instance whole (shared storage). */
      kind: "migrate";
      /** The member it moves to. */
      node: string;
    };

/**
 * A move's answer: the instance's new nodes and the steps to get there, or why it cannot move (per
 * group tried).
 */
export type SnapshotMoveOutcome =
  | {
      /** The instance can move. */
      readonly moved: true;
      /** Its new nodes: the primary first, then the secondary if mirrored. */
      readonly nodes: readonly string[];
      /** The name of the group it ends in. */
      readonly group: string;
      /** The operations that get it there, in order. */
      readonly steps: readonly SnapshotMoveStep[];
    }
  | {
      /** The instance cannot move. */
      readonly moved: false;
      /** Why, in hail's words (answered to Ganeti as the failure message). */
      readonly reason: string;
      /** What each group tried said, when groups were searched. */
      readonly attempts?: readonly GroupAttempt[];
    };

/**
 * Ganeti's `node-evacuate` modes: fail mirrored instances over to their secondary, give them a new
 * secondary, or move them whole.
 */
export type EvacuationMode = "primary-only" | "secondary-only" | "all";

/** Per candidate secondary: why it fails, or its balance score. */
export interface SecondaryChoice {
  /** The best candidate; absent when none fits. */
  readonly node?: string;
  /** Its group's balance score with the instance there (lower is better); absent with `node`. */
  readonly score?: number;
  /** How many candidates fit. */
  readonly successes: number;
  /** The candidates that do not fit. */
  readonly rejected: readonly {
    /** The candidate's name. */
    node: string;
    /** Why it does not fit (hail's `FailMem`, `FailDisk`, ...). */
    why: FailMode;
  }[];
}

/** The best new secondary for a mirrored (or about to be mirrored) instance, in its primary's group. */
export function chooseSecondary(
  cluster: SnapshotCluster,
  placed: PlacedInstance,
  exclude: ReadonlySet<string>,
): SecondaryChoice {
  const primary = cluster.nodes.get(placed.nodes[0]!)!;
  const group = cluster.group(primary.input.group);
  const spec = { ...placed.spec, template: "drbd" };
  const usable = cluster.nodesOf(group.id).filter((node) => node.input.usable);
  const balance = cluster.balanceOf(group.id);
  const disk = usesLocalStorage(spec.template) ? diskTotal(spec) : 0;
  const rejected: { node: string; why: FailMode }[] = [];
  let best: { node: SnapshotNode; score: number } | undefined;
  let successes = 0;
  for (const node of usable) {
    if (node === primary || exclude.has(node.name)) continue;
    const why = secondaryFailure(node, primary.name, spec, group);
    if (why !== undefined) {
      rejected.push({ node: node.name, why });
      continue;
    }
    successes += 1;
    const reserved = Math.max(node.reservedMemory, node.peerMemory(primary.name) + spec.memory);
    const score = balance.scoreWith({ before: metricsOf(node), after: metricsOf(node, { disk, reserved }) });
    if (best === undefined || score < best.score) best = { node, score };
  }
  return best === undefined
    ? { successes, rejected }
    : { node: best.node.name, score: best.score, successes, rejected };
}

function groupNameOf(cluster: SnapshotCluster, node: string): string {
  const record = cluster.nodes.get(node);
  return record === undefined ? "" : cluster.group(record.input.group).name;
}

/** Replaces a mirrored instance's secondary (the instance stays on its primary). */
function newSecondary(cluster: SnapshotCluster, placed: PlacedInstance): SnapshotMoveOutcome {
  const [primary, secondary] = placed.nodes as [string, string];
  const choice = chooseSecondary(cluster, placed, new Set([secondary]));
  if (choice.node === undefined) return { moved: false, reason: rejectionText(choice) };
  cluster.move(placed, [primary, choice.node]);
  return {
    moved: true,
    nodes: [primary, choice.node],
    group: groupNameOf(cluster, primary),
    steps: [{ kind: "replace-secondary", node: choice.node }],
  };
}

/** Why each candidate secondary failed, in hail's words (` Node n2 failed: FailMem;`). */
export function rejectionText(choice: SecondaryChoice): string {
  return choice.rejected.map(({ node, why }) => ` Node ${node} failed: ${why};`).join("");
}

/** Makes the secondary the primary (memory on the secondary was kept free for exactly this). */
function failover(cluster: SnapshotCluster, placed: PlacedInstance): SnapshotMoveOutcome {
  const [primary, secondary] = placed.nodes as [string, string];
  const target = cluster.nodes.get(secondary);
  if (target === undefined || !target.input.usable)
    return { moved: false, reason: `Node ${secondary} cannot take over` };
  if (target.freeMemory - placed.spec.memory <= 0)
    return { moved: false, reason: "Failover to the secondary: FailMem" };
  cluster.move(placed, [secondary, primary]);
  return {
    moved: true,
    nodes: [secondary, primary],
    group: groupNameOf(cluster, secondary),
    steps: [{ kind: "failover" }],
  };
}

/** Moves a mirrored instance to a whole new pair (in `groups`, or its own group). */
function newPair(
  cluster: SnapshotCluster,
  placed: PlacedInstance,
  groups: ReadonlySet<string> | undefined,
): SnapshotMoveOutcome {
  const old = placed.nodes;
  cluster.remove(placed);
  const ownGroup = cluster.nodes.get(old[0]!)?.input.group;
  const search = searchPlacement(cluster, placed.spec, {
    exclude: new Set(old),
    groups: groups ?? new Set(ownGroup === undefined ? [] : [ownGroup]),
  });
  if (search.chosen === undefined) {
    cluster.restore(placed);
    return { moved: false, reason: "", attempts: search.attempts };
  }
  const nodes = search.chosen.choice.nodes;
  placed.nodes = [...nodes];
  cluster.restore(placed);
  const steps: SnapshotMoveStep[] = isMirrored(placed.spec.template)
    ? [
        { kind: "replace-secondary", node: nodes[0]! },
        { kind: "failover" },
        { kind: "replace-secondary", node: nodes[1]! },
      ]
    : [{ kind: "migrate", node: nodes[0]! }];
  return { moved: true, nodes, group: search.chosen.group.name, steps };
}

/** `relocate`: a new node in place of `from` (a mirrored instance's secondary, or a shared-storage primary). */
export function relocateInstance(cluster: SnapshotCluster, name: string, from: string): SnapshotMoveOutcome {
  const placed = cluster.instances.get(name);
  if (placed === undefined) return { moved: false, reason: `Instance ${name} not found` };
  if (isMirrored(placed.spec.template)) {
    if (placed.nodes[1] !== from)
      return { moved: false, reason: `Node ${from} is not the secondary of ${name}` };
    return newSecondary(cluster, placed);
  }
  if (usesLocalStorage(placed.spec.template))
    return { moved: false, reason: `Instance ${name} has local storage and cannot move` };
  return newPair(cluster, placed, undefined);
}

/** `node-evacuate`: moves one instance off its node(s) as the mode says. */
export function evacuateInstance(
  cluster: SnapshotCluster,
  name: string,
  mode: EvacuationMode,
): SnapshotMoveOutcome {
  const placed = cluster.instances.get(name);
  if (placed === undefined) return { moved: false, reason: `Instance ${name} not found` };
  if (!isMirrored(placed.spec.template)) {
    if (usesLocalStorage(placed.spec.template))
      return { moved: false, reason: `Instance ${name} has local storage and cannot move` };
    if (mode === "secondary-only") return { moved: false, reason: `Instance ${name} has no secondary` };
    return newPair(cluster, placed, undefined);
  }
  if (mode === "primary-only") return failover(cluster, placed);
  if (mode === "secondary-only") return newSecondary(cluster, placed);
  return newPair(cluster, placed, undefined);
}

/** `change-group`: moves one instance to one of `targets` (empty: any group but its own). */
export function changeGroup(
  cluster: SnapshotCluster,
  name: string,
  targets: readonly string[],
): SnapshotMoveOutcome {
  const placed = cluster.instances.get(name);
  if (placed === undefined) return { moved: false, reason: `Instance ${name} not found` };
  if (usesLocalStorage(placed.spec.template) && !isMirrored(placed.spec.template))
    return { moved: false, reason: `Instance ${name} has local storage and cannot move` };
  const own = cluster.nodes.get(placed.nodes[0]!)?.input.group;
  const groups = new Set(
    targets.length > 0 ? targets : [...cluster.groups.keys()].filter((id) => id !== own),
  );
  return newPair(cluster, placed, groups);
}
