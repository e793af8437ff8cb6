/**
 * Confirming a regression before the gate fails on it. On a shared 2-core
 * machine one alternated pair of runs of a step can put a row 10-20 % on
 * either side of its true figure (the 10k scriptlet rows moved by up to 2x
 * between two full runs of the same two builds, 2026-11-29). So a step with
 * a row the gate would fail on (worse and unexplained, or worse than its
 * explanation accepts) is run again, both builds alternated, a fixed number
 * of times (`--confirm=N`, default 2), and every row of the step is then
 * the median of all its runs. A real regression shows in the median as it
 * did in the first run; a noisy one does not. The number of extra runs is
 * fixed in advance, not "until it passes", and the report lists every step
 * re-measured, the rows that triggered it and what they became.
 */
import { type ComparedRow, regressions } from "./compare.js";
import { applyExplanations, type Explanation } from "./explained.js";

/** Extra alternated runs of a step whose first runs flagged a row. */
export const DEFAULT_CONFIRM_RUNS = 2;

/** One step the gate re-measured. */
export interface Confirmation {
  step: string;
  /** The rows the gate would have failed on after the first runs, with their ratio then. */
  flagged: { id: string; ratio: number | null }[];
  /** Runs before the confirmation, and in all. */
  firstRuns: number;
  runs: number;
  /** The flagged rows' verdicts over all runs, by id. */
  after: Record<string, string>;
}

/** The rows of one step the gate would fail on: worse and not explained, or worse than explained. */
export function rowsToConfirm(
  rows: readonly ComparedRow[],
  explanations: readonly Explanation[],
  baselineCommit: string,
): ComparedRow[] {
  return regressions(applyExplanations(rows, explanations, baselineCommit).rows);
}

/** The flagged rows' verdicts once the step's rows are the medians of every run. */
export function confirmed(
  step: string,
  flagged: readonly ComparedRow[],
  firstRuns: number,
  runs: number,
  rows: readonly ComparedRow[],
  explanations: readonly Explanation[],
  baselineCommit: string,
): Confirmation {
  const judged = applyExplanations(rows, explanations, baselineCommit).rows;
  const after: Record<string, string> = {};
  for (const row of flagged) {
    const now = judged.find((r) => r.id === row.id);
    after[row.id] = now === undefined ? "not measured" : `${now.verdict} (${now.ratio ?? "n/a"})`;
  }
  return { step, flagged: flagged.map((r) => ({ id: r.id, ratio: r.ratio })), firstRuns, runs, after };
}

/** One line per re-measured step, for the report under the table. */
export function confirmationText(confirmations: readonly Confirmation[]): string {
  return confirmations
    .map(
      (c) =>
        `re-measured ${c.step}: after ${c.firstRuns} run(s) ${c.flagged.map((f) => `${f.id} (${f.ratio ?? "n/a"})`).join(", ")} came out worse; over ${c.runs} alternated runs, each row the median: ${Object.entries(
          c.after,
        )
          .map(([id, verdict]) => `${id} ${verdict}`)
          .join(", ")}`,
    )
    .join("\n");
}
