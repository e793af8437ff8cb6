/**
 * How balanced a group is, the figure Ganeti's allocator minimises: a
 * weighted sum of the spread (population standard deviation) of free
 * memory, free disk, failover-reserved memory and virtual-CPU use across
 * the group's usable members, plus the reserved memory in total. Kept as
 * running sums, so trying a member (or a pair) costs O(1), not O(members).
 */
import type { SnapshotNode } from "./cluster.js";

/** What a member contributes, as fractions of its capacity. */
export interface NodeMetrics {
  freeMemory: number;
  freeDisk: number;
  reservedMemory: number;
  cpuRatio: number;
}

const fraction = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

export function metricsOf(
  node: SnapshotNode,
  change: { memory?: number; disk?: number; cpus?: number; reserved?: number } = {},
): NodeMetrics {
  const input = node.input;
  return {
    freeMemory: fraction(node.freeMemory - (change.memory ?? 0), input.totalMemory),
    freeDisk: fraction(node.freeDisk - (change.disk ?? 0), input.totalDisk),
    reservedMemory: fraction(change.reserved ?? node.reservedMemory, input.totalMemory),
    cpuRatio: fraction(node.usedCpus + (change.cpus ?? 0), node.effectiveCpus),
  };
}

const KEYS = ["freeMemory", "freeDisk", "reservedMemory", "cpuRatio"] as const;
const SPREAD_WEIGHTS: Record<(typeof KEYS)[number], number> = {
  freeMemory: 0.5,
  freeDisk: 0.5,
  reservedMemory: 1,
  cpuRatio: 0.5,
};
const RESERVED_TOTAL_WEIGHT = 0.25;

export class GroupBalance {
  private count = 0;
  private readonly sums = [0, 0, 0, 0];
  private readonly squares = [0, 0, 0, 0];

  constructor(nodes: readonly SnapshotNode[]) {
    for (const node of nodes) this.add(metricsOf(node), 1);
  }

  private add(metrics: NodeMetrics, sign: 1 | -1): void {
    this.count += sign;
    KEYS.forEach((key, i) => {
      const value = metrics[key];
      this.sums[i]! += sign * value;
      this.squares[i]! += sign * value * value;
    });
  }

  /** The score with some members' metrics replaced (`before` → `after`), without changing the sums. */
  scoreWith(replaced: readonly { before: NodeMetrics; after: NodeMetrics }[]): number {
    const n = this.count;
    if (n === 0) return 0;
    let score = 0;
    KEYS.forEach((key, i) => {
      let sum = this.sums[i]!;
      let square = this.squares[i]!;
      for (const { before, after } of replaced) {
        sum += after[key] - before[key];
        square += after[key] * after[key] - before[key] * before[key];
      }
      const mean = sum / n;
      const variance = Math.max(square / n - mean * mean, 0);
      score += SPREAD_WEIGHTS[key] * Math.sqrt(variance);
      if (key === "reservedMemory") score += RESERVED_TOTAL_WEIGHT * sum;
    });
    return score;
  }

  /** Replaces a member's metrics for good (after a placement). */
  replace(before: NodeMetrics, after: NodeMetrics): void {
    this.add(before, -1);
    this.add(after, 1);
  }
}
