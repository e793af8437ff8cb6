/**
 * The gate's report: bench/results/comparison.json (every row, every step
 * run, both commits) and comparison.md (the table and the verdict, also
 * printed).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MachineInfo } from "../measure/machine.js";
import { type StepOutcome, THIS_BUILD } from "../run/run-step.js";
import { type ComparedRow, comparisonTable, REGRESSION_THRESHOLD, regressions } from "./compare.js";
import { type Confirmation, confirmationText } from "./confirm.js";
import { applyExplanations, type Explanation, explanationText } from "./explained.js";

export interface ComparisonRun {
  machine: MachineInfo;
  quick: boolean;
  runs: number;
  /** How the builds were alternated, in words. */
  order: string;
  current: { commit: string };
  baseline: { ref: string; commit: string };
  totalMs: number;
  steps: StepOutcome[];
  rows: ComparedRow[];
  /** bench/explained-regressions.json's entries (all baselines; those for this one apply). */
  explanations: readonly Explanation[];
  /** Steps measured again because a row came out worse (confirm.ts). */
  confirmations: readonly Confirmation[];
  /** The run's one-line context (machine, load, duration) under the table. */
  caption: string;
}

/**
 * Which bench code measured each side of each step, in words: this
 * checkout's measures this build always, and the baseline unless it fell
 * back to REF's own (run/bench-code.ts).
 */
export function benchCodeText(steps: readonly StepOutcome[], thisBuild: string): string {
  const names = [...new Set(steps.map((outcome) => outcome.step))];
  const parts = names.map((name) => {
    const baseline = steps.filter((o) => o.step === name && o.build !== thisBuild);
    const measured = baseline.find((o) => o.ok);
    if (measured === undefined)
      return baseline.length === 0 ? `${name}: not run against the baseline` : `${name}: the baseline failed`;
    if (measured.benchCode === "this checkout") return `${name}: this checkout's for both builds`;
    const fellBack = baseline.some((o) => !o.ok && o.benchCode === "this checkout");
    return `${name}: this checkout's for this build, the baseline's own for the baseline${fellBack ? " (this checkout's failed against its packages)" : ""}`;
  });
  return `bench code: ${parts.join("; ")}`;
}

/**
 * Writes both files into `resultsDir` and returns the text to print;
 * `regressed` lists the rows the gate fails on: WORSE and not explained
 * (or worse than their explanation accepts).
 */
export function writeComparison(
  resultsDir: string,
  run: ComparisonRun,
): { text: string; regressed: string[] } {
  const explained = applyExplanations(run.rows, run.explanations, run.baseline.commit);
  const regressed = regressions(explained.rows).map((row) => row.id);
  const excused = explained.rows.filter((row) => row.verdict === "explained").length;
  const limit = `${REGRESSION_THRESHOLD * 100} %`;
  const also = excused === 0 ? "" : ` (${excused} more, explained)`;
  const verdict =
    regressed.length === 0
      ? `no unexplained row more than ${limit} worse than the baseline${also}`
      : `${regressed.length} row(s) more than ${limit} worse than the baseline: ${regressed.join(", ")}${also}`;
  const { caption, explanations: _all, ...recorded } = run;
  writeFileSync(
    join(resultsDir, "comparison.json"),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        ...recorded,
        rows: explained.rows,
        regressions: regressed,
        explanationsExceeded: explained.exceeded,
        explanationsUnneeded: explained.unneeded,
      },
      null,
      2,
    )}\n`,
  );
  const name = `${run.baseline.ref} ${run.baseline.commit.slice(0, 12)}`;
  const code = benchCodeText(run.steps, THIS_BUILD);
  const notes = [confirmationText(run.confirmations), explanationText(explained)]
    .filter((part) => part !== "")
    .join("\n\n");
  const table = comparisonTable(explained.rows, name);
  const text = `${table}\n\n${notes === "" ? "" : `${notes}\n\n`}this build ${run.current.commit.slice(0, 12)}; ${run.order}\n${code}\n${caption}\n\n${verdict}\n`;
  writeFileSync(join(resultsDir, "comparison.md"), text);
  return { text, regressed };
}
