/**
 * The combined table of `pnpm bench`: the bars of this package's benchmarks
 * plus rows derived from the packages' own result files (Starlark workloads,
 * adapter hydration).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { round } from "../measure/stats.js";
import { type BarResult, type BenchResult, figure, RESULTS_DIR } from "./results.js";

interface StarlarkResults {
  results: {
    workload: string;
    outputMatches: boolean;
    inProcessMedianMs: number;
    inProcessMedianCpuMs?: number;
    goReferenceWallMs?: number;
  }[];
}

interface HydrationResults {
  members: number;
  instances: number;
  hydration: { medianTotalMs: number; medianRssAfterMiB: number };
}

function readJson<T>(file: string): T | undefined {
  const path = join(RESULTS_DIR, file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : undefined;
}

/** One row per workload: in-process median vs go.starlark.net's whole-process wall time. */
export function starlarkBars(results: StarlarkResults): BarResult[] {
  return results.results
    .filter((r) => r.goReferenceWallMs !== undefined && r.workload !== "empty")
    .map((r) => {
      const reference = r.goReferenceWallMs!;
      const measured = round(r.inProcessMedianMs, 1);
      return {
        id: `starlark.${r.workload}`,
        bar: `Starlark ${r.workload} (in-process median${r.outputMatches ? "" : ", OUTPUT WRONG"}; CPU ${round(r.inProcessMedianCpuMs ?? Number.NaN, 0)} ms)`,
        target: `<= ${reference} ms (go.starlark.net)`,
        measured,
        unit: "ms",
        met: r.outputMatches && measured <= reference,
      };
    });
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

/** Every bar available in bench/results, in table order; `missing` names result files not found. */
export function collectBars(ownFiles: string[]): { bars: BarResult[]; missing: string[] } {
  const bars: BarResult[] = [];
  const missing: string[] = [];
  for (const file of ownFiles) {
    const result = readJson<BenchResult>(file);
    if (result === undefined) missing.push(file);
    else bars.push(...result.bars);
  }
  const starlark = readJson<StarlarkResults>("starlark.json");
  if (starlark === undefined) missing.push("starlark.json");
  else bars.push(...starlarkBars(starlark));
  const hydration = readJson<HydrationResults>("adapter-sqlite-hydration.json");
  if (hydration === undefined) missing.push("adapter-sqlite-hydration.json");
  else bars.push(...hydrationBars(hydration));
  return { bars, missing };
}

function metText(met: boolean | null): string {
  if (met === null) return "";
  return met ? "yes" : "NO";
}

/** A Markdown table (also readable as plain text in a terminal). */
export function markdownTable(bars: BarResult[]): string {
  const rows = bars.map((b) => [b.bar, b.target, `${b.measured} ${b.unit}`, metText(b.met)]);
  const header = ["bar", "target", "measured (median)", "met?"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
