/**
 * How balanced a group is, the figure Ganeti's allocator minimises: a
 * weighted sum of the spread (population standard deviation) of free
 * memory, free disk, failover-reserved memory and virtual-CPU use across
 * the group's usable members, plus the reserved memory in total. Kept as
 * running sums, so trying a member (or a pair) costs O(1), not O(members).
 */

/** What a member contributes, as fractions of its capacity. */
export interface NodeMetrics {
  freeMemory: number;
  freeDisk: number;
  reservedMemory: number;
  cpuRatio: number;
}

const fraction = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** What the score reads of a node: its totals and what is free or used on it now. */
export interface ScoredNode {
  readonly input: { readonly totalMemory: number; readonly totalDisk: number };
  readonly freeMemory: number;
  readonly freeDisk: number;
  readonly reservedMemory: number;
  readonly usedCpus: number;
  readonly effectiveCpus: number;
}

export function metricsOf(
  node: ScoredNode,
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

/** Ganeti's weights: free memory and disk 0.5, reserved memory 1 (and 0.25 of its total), vCPU use 0.5. */
const FREE_MEMORY_WEIGHT = 0.5;
const FREE_DISK_WEIGHT = 0.5;
const RESERVED_WEIGHT = 1;
const CPU_WEIGHT = 0.5;
const RESERVED_TOTAL_WEIGHT = 0.25;

/** Population standard deviation from a count, a sum and a sum of squares. */
function spread(n: number, sum: number, squares: number): number {
  const mean = sum / n;
  const variance = squares / n - mean * mean;
  return variance > 0 ? Math.sqrt(variance) : 0;
}

export interface MetricsChange {
  readonly before: NodeMetrics;
  readonly after: NodeMetrics;
}

/** Sums and squares being adjusted by `scoreWith` (one buffer: scoring allocates nothing). */
const SCRATCH = new Float64Array(8);

/** Moves the sums in `t` from a member's metrics before a change to after it. */
function shift(t: Float64Array, { before: b, after: a }: MetricsChange): void {
  t[0]! += a.freeMemory - b.freeMemory;
  t[1]! += a.freeMemory * a.freeMemory - b.freeMemory * b.freeMemory;
  t[2]! += a.freeDisk - b.freeDisk;
  t[3]! += a.freeDisk * a.freeDisk - b.freeDisk * b.freeDisk;
  t[4]! += a.reservedMemory - b.reservedMemory;
  t[5]! += a.reservedMemory * a.reservedMemory - b.reservedMemory * b.reservedMemory;
  t[6]! += a.cpuRatio - b.cpuRatio;
  t[7]! += a.cpuRatio * a.cpuRatio - b.cpuRatio * b.cpuRatio;
}

export class GroupBalance {
  private count = 0;
  private memory = 0;
  private memorySq = 0;
  private disk = 0;
  private diskSq = 0;
  private reserved = 0;
  private reservedSq = 0;
  private cpu = 0;
  private cpuSq = 0;

  constructor(nodes: readonly ScoredNode[]) {
    for (const node of nodes) this.add(metricsOf(node), 1);
  }

  private add(m: NodeMetrics, sign: 1 | -1): void {
    this.count += sign;
    this.memory += sign * m.freeMemory;
    this.memorySq += sign * m.freeMemory * m.freeMemory;
    this.disk += sign * m.freeDisk;
    this.diskSq += sign * m.freeDisk * m.freeDisk;
    this.reserved += sign * m.reservedMemory;
    this.reservedSq += sign * m.reservedMemory * m.reservedMemory;
    this.cpu += sign * m.cpuRatio;
    this.cpuSq += sign * m.cpuRatio * m.cpuRatio;
  }

  /** The score with one or two members' metrics replaced, without changing the sums. */
  scoreWith(first: MetricsChange, second?: MetricsChange): number {
    const n = this.count;
    if (n === 0) return 0;
    const t = SCRATCH;
    t[0] = this.memory;
    t[1] = this.memorySq;
    t[2] = this.disk;
    t[3] = this.diskSq;
    t[4] = this.reserved;
    t[5] = this.reservedSq;
    t[6] = this.cpu;
    t[7] = this.cpuSq;
    shift(t, first);
    if (second !== undefined) shift(t, second);
    return (
      FREE_MEMORY_WEIGHT * spread(n, t[0]!, t[1]!) +
      FREE_DISK_WEIGHT * spread(n, t[2]!, t[3]!) +
      RESERVED_WEIGHT * spread(n, t[4]!, t[5]!) +
      CPU_WEIGHT * spread(n, t[6]!, t[7]!) +
      RESERVED_TOTAL_WEIGHT * t[4]!
    );
  }

  /** Replaces a member's metrics for good (the cluster calls this as placements change it). */
  replace(before: NodeMetrics, after: NodeMetrics): void {
    this.add(before, -1);
    this.add(after, 1);
  }
}
