import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MachineInfo, machineInfo } from "../measure/machine.js";

/** bench/results at the repository root (this file runs from bench/dist/report/). */
export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "results");

/**
 * Which way a figure improves, for the comparison with a baseline build
 * (`pnpm bench --baseline=REF`): latencies, CPU times and memory are better
 * lower, throughputs higher; null for figures that judge no build (counts,
 * another program's time, a generator's).
 */
export type Better = "lower" | "higher" | null;

/** The direction a unit implies: time and memory lower, rates ("/s") higher, anything else none. */
export function betterByUnit(unit: string): Better {
  if (unit === "ms" || unit === "MiB" || unit === "answers") return "lower";
  if (unit.endsWith("/s")) return "higher";
  return null;
}

/** One line of the combined table: a quality bar (or a supporting figure) and what was measured. */
export interface BarResult {
  /** Stable key, e.g. "placement.1k.default.p50". */
  id: string;
  /** What was measured, in words. */
  bar: string;
  /** The bar's target, e.g. "<= 1 ms" (the README's Performance table); "" for supporting figures. */
  target: string;
  /** The measured median (or the single figure the bar is about). */
  measured: number;
  unit: string;
  /** true/false against the target; null for supporting figures without a target. */
  met: boolean | null;
  /** Which way the figure improves; absent in results written before the field (then taken from the unit). */
  better?: Better;
  /** The number `met` was judged against (atMost/atLeast), so a median over runs can be judged again. */
  limit?: number;
}

export interface BenchResult {
  benchmark: string;
  date: string;
  machine: MachineInfo;
  durationMs: number;
  bars: BarResult[];
  details: Record<string, unknown>;
}

/** `measured <= limit` as a bar line. */
export function atMost(id: string, bar: string, measured: number, limit: number, unit: string): BarResult {
  return {
    id,
    bar,
    target: `<= ${limit} ${unit}`,
    measured,
    unit,
    met: measured <= limit,
    better: "lower",
    limit,
  };
}

/** `measured >= floor` as a bar line. */
export function atLeast(id: string, bar: string, measured: number, floor: number, unit: string): BarResult {
  return {
    id,
    bar,
    target: `>= ${floor} ${unit}`,
    measured,
    unit,
    met: measured >= floor,
    better: "higher",
    limit: floor,
  };
}

/**
 * A figure reported beside the bars, without a target of its own; `better`
 * defaults to what the unit implies (pass null for figures that are not about
 * this build, e.g. another program's time).
 */
export function figure(
  id: string,
  bar: string,
  measured: number,
  unit: string,
  better: Better = betterByUnit(unit),
): BarResult {
  return { id, bar, target: "", measured, unit, met: null, better };
}

export function writeResult(file: string, result: Omit<BenchResult, "date" | "machine">): BenchResult {
  const full: BenchResult = { ...result, date: new Date().toISOString(), machine: machineInfo() };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, file), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

export function readResult<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(join(RESULTS_DIR, file), "utf8")) as T;
}
