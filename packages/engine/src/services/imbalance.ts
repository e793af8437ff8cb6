/**
 * The cluster imbalance score, in the spirit of Ganeti's hbal (`compCV`): a
 * weighted sum of population standard deviations over the schedulable
 * members of
 *  - each resource class's utilisation by real instances (weight 0.5),
 *  - the same counting reservations too (weight 0.5, Ganeti's `*_forth` rows),
 *  - the instance count relative to the mean (weight 0.5): Berth's default
 *    policy balances counts, and instances without limits use no resources.
 * A perfectly even cluster scores 0. Statistics are kept as running sums so
 * evaluating a move touches only the two members and the classes involved.
 */

export interface MemberLoad {
  name: string;
  /** Capacity per class ((total - reserved) * ratio). */
  capacity: Map<string, number>;
  used: Map<string, number>;
  forthcoming: Map<string, number>;
  count: number;
}

interface Metric {
  weight: number;
  values: Float64Array;
  sum: number;
  sumSquares: number;
  /** Members the metric applies to (those with an inventory of the class). */
  members: Uint8Array;
  n: number;
}

export const WEIGHTS = { used: 0.5, withReservations: 0.5, count: 0.5 } as const;

function deviation(sum: number, sumSquares: number, n: number): number {
  if (n === 0) return 0;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sumSquares / n - mean * mean));
}

export class ImbalanceModel {
  private readonly index = new Map<string, number>();
  private readonly metrics = new Map<string, Metric>();
  private readonly meanCount: number;

  constructor(readonly members: MemberLoad[]) {
    for (const [i, member] of members.entries()) this.index.set(member.name, i);
    const classes = new Set<string>();
    for (const member of members)
      for (const [resourceClass, cap] of member.capacity) if (cap > 0) classes.add(resourceClass);
    for (const resourceClass of classes) {
      this.metrics.set(`used:${resourceClass}`, this.newMetric(WEIGHTS.used, resourceClass));
      this.metrics.set(`all:${resourceClass}`, this.newMetric(WEIGHTS.withReservations, resourceClass));
    }
    const total = members.reduce((sum, member) => sum + member.count, 0);
    this.meanCount = members.length === 0 ? 0 : total / members.length;
    if (total > 0) this.metrics.set("count", this.newMetric(WEIGHTS.count, null));
    for (const [key, metric] of this.metrics) {
      members.forEach((member, i) => {
        if (metric.members[i] === 0) return;
        const value = this.valueOf(key, member);
        metric.values[i] = value;
        metric.sum += value;
        metric.sumSquares += value * value;
      });
    }
  }

  private newMetric(weight: number, resourceClass: string | null): Metric {
    const members = new Uint8Array(this.members.length);
    let n = 0;
    this.members.forEach((member, i) => {
      if (resourceClass === null || (member.capacity.get(resourceClass) ?? 0) > 0) {
        members[i] = 1;
        n += 1;
      }
    });
    return { weight, values: new Float64Array(this.members.length), sum: 0, sumSquares: 0, members, n };
  }

  private valueOf(key: string, member: MemberLoad): number {
    if (key === "count") return this.meanCount === 0 ? 0 : member.count / this.meanCount;
    const [ledger, resourceClass] = key.split(":") as [string, string];
    const capacity = member.capacity.get(resourceClass) ?? 0;
    if (capacity <= 0) return 0;
    const used = member.used.get(resourceClass) ?? 0;
    const consumed = ledger === "used" ? used : used + (member.forthcoming.get(resourceClass) ?? 0);
    return consumed / capacity;
  }

  member(name: string): MemberLoad | undefined {
    const i = this.index.get(name);
    return i === undefined ? undefined : this.members[i];
  }

  score(): number {
    let total = 0;
    for (const metric of this.metrics.values())
      total += metric.weight * deviation(metric.sum, metric.sumSquares, metric.n);
    return total;
  }

  /** Metrics a move of these resources changes. */
  private touched(
    resources: Readonly<Record<string, number>>,
    arriving: Readonly<Record<string, number>>,
    forthcoming: boolean,
  ): string[] {
    const keys: string[] = [];
    const classes =
      arriving === resources ? Object.keys(resources) : Object.keys({ ...resources, ...arriving });
    for (const resourceClass of classes) {
      if (!forthcoming && this.metrics.has(`used:${resourceClass}`)) keys.push(`used:${resourceClass}`);
      if (this.metrics.has(`all:${resourceClass}`)) keys.push(`all:${resourceClass}`);
    }
    if (this.metrics.has("count")) keys.push("count");
    return keys;
  }

  private shift(
    from: MemberLoad,
    to: MemberLoad,
    resources: Readonly<Record<string, number>>,
    arriving: Readonly<Record<string, number>>,
    forthcoming: boolean,
    sign: number,
  ) {
    const ledger = forthcoming ? "forthcoming" : "used";
    for (const [resourceClass, amount] of Object.entries(resources)) {
      from[ledger].set(resourceClass, (from[ledger].get(resourceClass) ?? 0) - sign * amount);
    }
    for (const [resourceClass, amount] of Object.entries(arriving)) {
      to[ledger].set(resourceClass, (to[ledger].get(resourceClass) ?? 0) + sign * amount);
    }
    from.count -= sign;
    to.count += sign;
  }

  /**
   * Score after moving an instance holding `resources` from one member to
   * another, where it holds `arriving` (the same amounts, unless a memory
   * share is sized again on the target); the model is left unchanged.
   */
  scoreAfterMove(
    fromName: string,
    toName: string,
    resources: Readonly<Record<string, number>>,
    forthcoming: boolean,
    arriving: Readonly<Record<string, number>> = resources,
  ): number {
    const fromIndex = this.index.get(fromName);
    const toIndex = this.index.get(toName);
    if (fromIndex === undefined || toIndex === undefined) return Number.POSITIVE_INFINITY;
    const from = this.members[fromIndex]!;
    const to = this.members[toIndex]!;
    const keys = this.touched(resources, arriving, forthcoming);
    let score = this.score();
    this.shift(from, to, resources, arriving, forthcoming, 1);
    for (const key of keys) {
      const metric = this.metrics.get(key)!;
      let { sum, sumSquares } = metric;
      for (const [i, member] of [
        [fromIndex, from],
        [toIndex, to],
      ] as const) {
        if (metric.members[i] === 0) continue;
        const before = metric.values[i]!;
        const after = this.valueOf(key, member);
        sum += after - before;
        sumSquares += after * after - before * before;
      }
      score +=
        metric.weight *
        (deviation(sum, sumSquares, metric.n) - deviation(metric.sum, metric.sumSquares, metric.n));
    }
    this.shift(from, to, resources, arriving, forthcoming, -1);
    return score;
  }

  /** Applies a move to the statistics (`arriving` as in scoreAfterMove). */
  applyMove(
    fromName: string,
    toName: string,
    resources: Readonly<Record<string, number>>,
    forthcoming: boolean,
    arriving: Readonly<Record<string, number>> = resources,
  ): void {
    const fromIndex = this.index.get(fromName)!;
    const toIndex = this.index.get(toName)!;
    const from = this.members[fromIndex]!;
    const to = this.members[toIndex]!;
    const keys = this.touched(resources, arriving, forthcoming);
    this.shift(from, to, resources, arriving, forthcoming, 1);
    for (const key of keys) {
      const metric = this.metrics.get(key)!;
      for (const [i, member] of [
        [fromIndex, from],
        [toIndex, to],
      ] as const) {
        if (metric.members[i] === 0) continue;
        const before = metric.values[i]!;
        const after = this.valueOf(key, member);
        metric.values[i] = after;
        metric.sum += after - before;
        metric.sumSquares += after * after - before * before;
      }
    }
  }
}
