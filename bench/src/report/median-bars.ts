/**
 * `--runs=N`: the rows of N runs of one step folded into one row each, the
 * median of the runs' figures, judged again against the row's target.
 */
import { median } from "../measure/stats.js";
import type { BarResult } from "./results.js";

/** Re-judges a median against the number its target names; rows without one keep "met in every run". */
function metOf(runs: readonly BarResult[], measured: number): boolean | null {
  const first = runs[0]!;
  if (first.met === null) return null;
  if (first.limit !== undefined)
    return first.better === "higher" ? measured >= first.limit : measured <= first.limit;
  return runs.every((bar) => bar.met === true);
}

/**
 * The mean of two figures as a table shows it: 0.957 rather than
 * 0.9570000000000001 (binary floating point); twelve significant digits
 * keep every digit a bench writes.
 */
function withoutFloatNoise(value: number): number {
  return Number(value.toPrecision(12));
}

/** One row per id (in the order the ids first appear), its figure the median over the runs that have it. */
export function medianBars(runs: readonly (readonly BarResult[])[]): BarResult[] {
  const byId = new Map<string, BarResult[]>();
  for (const run of runs) {
    for (const bar of run) {
      const seen = byId.get(bar.id);
      if (seen === undefined) byId.set(bar.id, [bar]);
      else seen.push(bar);
    }
  }
  return [...byId.values()].map((same) => {
    const measured = withoutFloatNoise(median(same.map((bar) => bar.measured)));
    return { ...same[0]!, measured, met: metOf(same, measured) };
  });
}
