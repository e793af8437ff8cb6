/**
 * Placing a batch (Ganeti's `multi-allocate`): each instance is placed
 * against the cluster as the earlier ones left it. Largest first (memory,
 * then CPUs, then disk), as the engine's bulk create does, because a big
 * instance placed after small ones may find every member partly filled;
 * the answer keeps request order. All-or-nothing when asked: the first
 * instance that fits nowhere fails the batch and nothing is placed.
 */
import { type PlacementLimits, type PlacementSearch, placeInstance } from "./allocate.js";
import type { PlacedInstance, SnapshotCluster } from "./cluster.js";
import { diskTotal, type InstanceSpec } from "./spec.js";

/** What placing a batch found. */
export interface BatchOutcome {
  /** One search per instance, in request order. */
  readonly searches: readonly PlacementSearch[];
  /** With all-or-nothing: the first instance (in placing order) that fits nowhere. */
  readonly blockedBy?: PlacementSearch;
}

function largestFirst(specs: readonly InstanceSpec[]): number[] {
  const order = specs.map((_, index) => index);
  const key = (spec: InstanceSpec) => [spec.memory, spec.vcpus, diskTotal(spec)];
  order.sort((a, b) => {
    const ka = key(specs[a]!);
    const kb = key(specs[b]!);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return a - b;
  });
  return order;
}

/**
 * Places a batch largest first against the cluster as the earlier placements left it; answers in
 * request order (see the file's comment).
 */
export function placeBatch(
  cluster: SnapshotCluster,
  specs: readonly InstanceSpec[],
  options: { allOrNothing: boolean; limits?: PlacementLimits },
): BatchOutcome {
  const searches: PlacementSearch[] = new Array(specs.length);
  const placed: PlacedInstance[] = [];
  for (const index of largestFirst(specs)) {
    const search = placeInstance(cluster, specs[index]!, options.limits);
    searches[index] = search;
    if (search.placed !== undefined) placed.push(search.placed);
    else if (options.allOrNothing) {
      for (const instance of placed) cluster.remove(instance);
      return { searches, blockedBy: search };
    }
  }
  return { searches };
}
