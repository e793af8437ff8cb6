/**
 * The combined table of `pnpm bench`: the bars of this package's benchmarks
 * plus rows derived from the packages' own result files (Starlark workloads,
 * adapter hydration).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { round } from "../measure/stats.js";
import { type BarResult, type BenchResult, figure } from "./results.js";
import { textTable } from "./text-table.js";

/** The parts of `packages/starlark/bench/run.mjs`'s report the table uses. */
interface StarlarkResults {
  goStarlark?: { available: boolean; reason?: string };
  results: {
    workload: string;
    outputMatches: boolean;
    inProcessMedianMs: number;
    inProcessMedianCpuMs?: number;
    wholeProcessMedianMs: number;
    /** go.starlark.net's whole-process median in the same run; null when Go was unavailable. */
    goWholeProcessMedianMs: number | null;
  }[];
}

interface HydrationResults {
  members: number;
  instances: number;
  hydration: { medianTotalMs: number; medianRssAfterMiB: number };
}

/** Issue #19's targets, as `packages/starlark/bench/run.mjs` judges them. */
const IN_PROCESS_RATIO = 0.5;
const WHOLE_PROCESS_FROM_MS = 200;

/**
 * Rows per workload (but the start-up baseline `empty`) against go.starlark.net measured in the
 * same run: the in-process median at most half of Go's whole-process time, and, where Go takes
 * over 200 ms, the whole `starlark` process no slower than Go's. Without Go, one row per
 * workload says so and judges nothing.
 */
export function starlarkBars(results: StarlarkResults): BarResult[] {
  const bars: BarResult[] = [];
  for (const r of results.results) {
    if (r.workload === "empty") continue;
    const wrong = r.outputMatches ? "" : ", OUTPUT WRONG";
    const cpu = round(r.inProcessMedianCpuMs ?? Number.NaN, 0);
    const measured = round(r.inProcessMedianMs, 1);
    const go = r.goWholeProcessMedianMs;
    if (go === null || go === undefined) {
      bars.push({
        id: `starlark.${r.workload}`,
        bar: `Starlark ${r.workload} (in-process median${wrong}; CPU ${cpu} ms)`,
        target: `vs go.starlark.net: unavailable (${results.goStarlark?.reason ?? "not measured"})`,
        measured,
        unit: "ms",
        met: null,
      });
      continue;
    }
    const limit = round(go * IN_PROCESS_RATIO, 1);
    bars.push({
      id: `starlark.${r.workload}`,
      bar: `Starlark ${r.workload} (in-process median${wrong}; CPU ${cpu} ms)`,
      target: `<= ${limit} ms (${IN_PROCESS_RATIO} x go.starlark.net's ${round(go, 0)} ms, same run)`,
      measured,
      unit: "ms",
      met: r.outputMatches && measured <= limit,
    });
    if (go > WHOLE_PROCESS_FROM_MS) {
      const whole = round(r.wholeProcessMedianMs, 0);
      bars.push({
        id: `starlark.${r.workload}.process`,
        bar: `  same, whole \`starlark\` process (Node start-up included)`,
        target: `<= ${round(go, 0)} ms (go.starlark.net, same run)`,
        measured: whole,
        unit: "ms",
        met: r.outputMatches && whole <= go,
      });
    }
  }
  return bars;
}

export function hydrationBars(results: HydrationResults): BarResult[] {
  return [
    figure(
      "adapter.hydration",
      `adapter openStore + snapshot, ${results.members.toLocaleString("en-US")} members / ${results.instances.toLocaleString("en-US")} instances, median`,
      results.hydration.medianTotalMs,
      "ms",
    ),
    figure(
      "adapter.hydration.rss",
      "  same, RSS after start-up, median",
      results.hydration.medianRssAfterMiB,
      "MiB",
    ),
  ];
}

/**
 * The rows of one step's result file in `resultsDir` (a build's bench/results),
 * undefined when the step left no file: the packages' own reports (Starlark,
 * adapter hydration) become rows here, this package's benches carry theirs.
 */
export function readBars(resultsDir: string, file: string): BarResult[] | undefined {
  const path = join(resultsDir, file);
  if (!existsSync(path)) return undefined;
  const json: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (file === "starlark.json") return starlarkBars(json as StarlarkResults);
  if (file === "adapter-sqlite-hydration.json") return hydrationBars(json as HydrationResults);
  return (json as BenchResult).bars;
}

function metText(met: boolean | null): string {
  if (met === null) return "";
  return met ? "yes" : "NO";
}

/** A Markdown table (also readable as plain text in a terminal). */
export function markdownTable(bars: BarResult[]): string {
  const rows = bars.map((b) => [b.bar, b.target, `${b.measured} ${b.unit}`, metText(b.met)]);
  return textTable(["bar", "target", "measured (median)", "met?"], rows);
}
