/**
 * The regression gate's judgement (`pnpm bench --baseline=REF`): each row of
 * this build beside the same row of the baseline build, their ratio, and
 * whether this build is more than the threshold worse, in the direction the
 * row improves (lower latency, higher throughput).
 */
import { round } from "../measure/stats.js";
import type { BenchCode } from "../run/bench-code.js";
import { type BarResult, type Better, betterByUnit } from "./results.js";
import { textTable } from "./text-table.js";

/** A row more than this fraction worse than the baseline is marked (issue #30: 10 %). */
export const REGRESSION_THRESHOLD = 0.1;

/**
 * How a row compares: judged rows are worse/better/same, or "explained" (worse,
 * within what bench/explained-regressions.json accepts: report/explained.ts);
 * the others say why they are not judged.
 */
export type Verdict =
  | "worse"
  | "explained"
  | "better"
  | "same"
  | "not judged"
  | "baseline is 0"
  | "n/a in baseline"
  | "n/a in this build";

export interface ComparedRow {
  id: string;
  bar: string;
  unit: string;
  /** This build's figure; null when this build produced no such row (its step failed). */
  current: number | null;
  /** The baseline's figure; null when the baseline has no such row (its API or step is missing there). */
  baseline: number | null;
  /** current / baseline, when both exist and the baseline is not 0. */
  ratio: number | null;
  better: Better;
  verdict: Verdict;
  /**
   * The bench code that measured the baseline's figure (run/bench-code.ts):
   * absent for this checkout's (the same code as this build's figure), or
   * "baseline's own" when ours could not run against REF's packages.
   */
  baselineBenchCode?: BenchCode;
  /** Why the row is worse, when its verdict is "explained". */
  explanation?: string;
}

/** A row's direction: as the bench set it, else as its unit implies (results written before the field). */
export function directionOf(bar: BarResult): Better {
  return bar.better === undefined ? betterByUnit(bar.unit) : bar.better;
}

/**
 * How much worse `current` is than `baseline` as a fraction (negative when
 * better): for lower-is-better rows current / baseline - 1, for higher-is-better
 * 1 - current / baseline, so "10 % worse" is 1.1 x the latency or 0.9 x the
 * throughput.
 */
export function worsening(current: number, baseline: number, better: "lower" | "higher"): number {
  const ratio = current / baseline;
  return better === "lower" ? ratio - 1 : 1 - ratio;
}

function verdictOf(current: number, baseline: number, better: Better, threshold: number): Verdict {
  if (better === null) return "not judged";
  if (baseline === 0) return current === 0 ? "same" : "baseline is 0";
  // Rounded so that exactly 10 % (1.1 / 1 - 1 = 0.10000000000000009 in floating point) is not "more than 10 %".
  const worse = round(worsening(current, baseline, better), 9);
  if (worse > threshold) return "worse";
  if (worse < -threshold) return "better";
  return "same";
}

/**
 * Every row of this build against the baseline's row of the same id, in this
 * build's order, then the rows only the baseline has. `baseline` undefined
 * means the baseline's step produced nothing: every row is "n/a in baseline".
 */
export function compareBars(
  current: readonly BarResult[],
  baseline: readonly BarResult[] | undefined,
  threshold = REGRESSION_THRESHOLD,
): ComparedRow[] {
  const before = new Map((baseline ?? []).map((bar) => [bar.id, bar]));
  const rows: ComparedRow[] = current.map((bar) => {
    const better = directionOf(bar);
    const base = before.get(bar.id);
    const row = { id: bar.id, bar: bar.bar, unit: bar.unit, current: bar.measured, better };
    if (base === undefined) return { ...row, baseline: null, ratio: null, verdict: "n/a in baseline" };
    const ratio =
      base.measured === 0 ? (bar.measured === 0 ? 1 : null) : round(bar.measured / base.measured, 3);
    return {
      ...row,
      baseline: base.measured,
      ratio,
      verdict: verdictOf(bar.measured, base.measured, better, threshold),
    };
  });
  const ours = new Set(current.map((bar) => bar.id));
  for (const bar of baseline ?? []) {
    if (ours.has(bar.id)) continue;
    rows.push({
      id: bar.id,
      bar: bar.bar,
      unit: bar.unit,
      current: null,
      baseline: bar.measured,
      ratio: null,
      better: directionOf(bar),
      verdict: "n/a in this build",
    });
  }
  return rows;
}

/** The rows of one step, marked with the bench code that measured their baseline figures. */
export function measuredBy(rows: readonly ComparedRow[], code: BenchCode | undefined): ComparedRow[] {
  if (code === undefined || code === "this checkout") return [...rows];
  return rows.map((row) => (row.baseline === null ? row : { ...row, baselineBenchCode: code }));
}

/** The rows the gate fails on. */
export function regressions(rows: readonly ComparedRow[]): ComparedRow[] {
  return rows.filter((row) => row.verdict === "worse");
}

const MARKS: Record<Verdict, string> = {
  worse: "WORSE",
  explained: "worse, explained",
  better: "better",
  same: "",
  "not judged": "(not judged)",
  "baseline is 0": "(baseline 0)",
  "n/a in baseline": "n/a in baseline",
  "n/a in this build": "n/a in this build",
};

const figureText = (value: number | null, unit: string) => (value === null ? "n/a" : `${value} ${unit}`);

/** Marks a baseline figure REF's own bench code measured; the legend under the table says what it means. */
const OWN_CODE_MARK = " (own bench)";
const OWN_CODE_LEGEND =
  "(own bench): the baseline's figure was measured by REF's own bench code, because this checkout's could not run against REF's packages (an engine API REF lacks); this build's figure by this checkout's. The two benches may measure differently: read such a ratio as a rough guide, and check what REF's bench did.";

/** A Markdown table (also readable as plain text): row, this build, baseline, ratio, mark. */
export function comparisonTable(rows: readonly ComparedRow[], baselineName: string): string {
  const cells = rows.map((row) => [
    row.bar,
    figureText(row.current, row.unit),
    `${figureText(row.baseline, row.unit)}${row.baselineBenchCode === "baseline's own" ? OWN_CODE_MARK : ""}`,
    row.ratio === null ? "" : `${row.ratio}x`,
    MARKS[row.verdict],
  ]);
  const header = [
    "row",
    "this build",
    `baseline (${baselineName})`,
    "ratio",
    `> ${REGRESSION_THRESHOLD * 100} % worse?`,
  ];
  const table = textTable(header, cells);
  const ownCode = rows.some((row) => row.baselineBenchCode === "baseline's own");
  return ownCode ? `${table}\n\n${OWN_CODE_LEGEND}` : table;
}
