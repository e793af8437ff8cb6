/**
 * `pnpm bench` at the repository root: every benchmark, one at a time, each in
 * its own process, then one combined table and bench/results/summary.json (+ summary.md).
 *   node bench/dist/run-all.js [--quick] [--only=placement,http,...] [--runs=N] [--baseline=REF]
 * With --baseline=REF (any commit-ish) every step also runs against REF's
 * build, alternated with this one, and bench/results/comparison.json (+ .md)
 * marks each row more than 10 % worse than REF's (see README.md); a row
 * bench/explained-regressions.json explains against REF's commit is printed
 * with its reason and does not fail the run (report/explained.ts). A step
 * with a row the gate would fail on is first measured again (--confirm=N,
 * report/confirm.ts): the gate judges the median of all its runs.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { machineInfo } from "./measure/machine.js";
import { log, since } from "./measure/timing.js";
import { type ComparedRow, compareBars, measuredBy } from "./report/compare.js";
import { writeComparison } from "./report/comparison-report.js";
import { type Confirmation, confirmed, DEFAULT_CONFIRM_RUNS, rowsToConfirm } from "./report/confirm.js";
import { EXPLANATIONS_FILE, type Explanation, readExplanations } from "./report/explained.js";
import { medianBars } from "./report/median-bars.js";
import { type BarResult, RESULTS_DIR } from "./report/results.js";
import { markdownTable } from "./report/summary.js";
import { type BaselineBuild, prepareBaseline, resolveCommit } from "./run/baseline-build.js";
import { type BenchCode, benchCodesToTry } from "./run/bench-code.js";
import { runOrder } from "./run/run-order.js";
import { runStep, type StepOutcome, signalRunningStep, THIS_BUILD } from "./run/run-step.js";
import { defineSteps } from "./run/steps.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const argv = process.argv.slice(2);
const USAGE = `usage: node bench/dist/run-all.js [--quick] [--only=STEP,...] [--runs=N] [--baseline=REF]
                                  [--confirm=N] [--no-reference] [--no-hail-200]
  --quick          smaller clusters and fewer samples (a smoke run; its figures judge nothing)
  --only=STEPS     run only these steps (comma-separated; an unknown name lists the steps)
  --runs=N         run every step N times; each row is the median of the runs
  --baseline=REF   also build REF in a temporary worktree and alternate every step with it;
                   rows more than 10 % worse than REF's are marked (bench/results/comparison.md)
  --confirm=N      with --baseline: a step with a row the gate would fail on runs N more times,
                   both builds alternated, and its rows become the medians of all runs
                   (default ${DEFAULT_CONFIRM_RUNS}; 0: judge the first runs alone)
  --no-reference   placement-api: skip the real OpenStack Placement
  --no-hail-200    iallocator: skip hail's 200 x 200 multi-allocate`;
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
/** A refused command line: the reason on stderr, exit 2, no stack trace. */
function refuse(reason: string): never {
  console.error(`bench: ${reason}`);
  process.exit(2);
}
// An option this runner does not know would otherwise start the whole bench (a quarter of an hour).
const FLAGS = ["--quick", "--no-reference", "--no-hail-200"];
const VALUED = ["--only=", "--runs=", "--baseline=", "--confirm="];
const strays = argv.filter((a) => !FLAGS.includes(a) && !VALUED.some((prefix) => a.startsWith(prefix)));
if (strays.length > 0) refuse(`unknown argument ${strays.join(" ")}\n${USAGE}`);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = argv.includes("--quick");
const only = option("only")?.split(",");
const runs = Number(option("runs") ?? 1);
const baselineRef = option("baseline");
if (!Number.isInteger(runs) || runs < 1) refuse(`--runs=${option("runs")}: a whole number >= 1`);
const confirmRuns = Number(option("confirm") ?? DEFAULT_CONFIRM_RUNS);
if (!Number.isInteger(confirmRuns) || confirmRuns < 0)
  refuse(`--confirm=${option("confirm")}: a whole number >= 0`);

const allSteps = defineSteps({ quick, argv });
const unknown = (only ?? []).filter((name) => !allSteps.some((step) => step.name === name));
if (unknown.length > 0)
  refuse(`--only: no step ${unknown.join(", ")} (steps: ${allSteps.map((s) => s.name).join(", ")})`);
const selected = allSteps.filter((step) => only === undefined || only.includes(step.name));
// Read before the run, so a malformed file is refused now and not after a quarter of an hour.
let explanations: Explanation[] = [];
try {
  explanations = readExplanations(join(repoRoot, EXPLANATIONS_FILE));
} catch (error) {
  refuse((error as Error).message);
}

const started = performance.now();
let baseline: BaselineBuild | undefined;
// A Ctrl-C or kill stops the running step and ends the loop; the `finally` below removes the baseline's worktree.
let interrupted: NodeJS.Signals | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = signal;
    signalRunningStep(signal);
  });
}
const outcomes: StepOutcome[] = [];
const ours: BarResult[] = [];
const rows: ComparedRow[] = [];
const confirmations: Confirmation[] = [];
try {
  if (baselineRef !== undefined) baseline = prepareBaseline(repoRoot, baselineRef);
  const builds = [{ name: THIS_BUILD, root: repoRoot }];
  if (baseline !== undefined) builds.push({ name: `baseline ${baseline.ref}`, root: baseline.root });
  for (const step of selected) {
    if (interrupted !== undefined) break;
    const barsOf = new Map(builds.map((build) => [build.name, [] as BarResult[][]]));
    /** The bench code that measured this step's baseline, once a run of it succeeded (bench-code.ts). */
    let baselineCode: BenchCode | undefined;
    /** Runs `from` to `to` (exclusive) of the step, each build in turn (runOrder alternates them). */
    const measureRuns = async (from: number, to: number) => {
      for (let run = from; run < to && interrupted === undefined; run++) {
        for (const build of runOrder(builds, run)) {
          if (interrupted !== undefined) break;
          if (build.name === THIS_BUILD) {
            const { outcome, bars } = await runStep(step, build.root, build.name, run);
            outcomes.push(outcome);
            if (bars !== undefined) barsOf.get(build.name)!.push(bars);
            continue;
          }
          for (const code of benchCodesToTry(baselineCode, baseline!.hasOwnBenchCode)) {
            if (interrupted !== undefined) break;
            baseline!.useBenchCode(code);
            const { outcome, bars } = await runStep(step, build.root, build.name, run, code);
            outcomes.push(outcome);
            if (bars === undefined) continue;
            barsOf.get(build.name)!.push(bars);
            baselineCode = code;
            break;
          }
          baseline!.useBenchCode("this checkout");
        }
      }
    };
    const compare = () => {
      const mine = barsOf.get(THIS_BUILD)!;
      const theirs = barsOf.get(builds[1]!.name)!;
      return compareBars(
        mine.length === 0 ? [] : medianBars(mine),
        theirs.length === 0 ? undefined : medianBars(theirs),
      );
    };
    await measureRuns(0, runs);
    if (baseline !== undefined && confirmRuns > 0 && interrupted === undefined) {
      const flagged = rowsToConfirm(compare(), explanations, baseline.commit);
      if (flagged.length > 0) {
        log(
          `${step.name}: ${flagged.map((r) => `${r.id} (${r.ratio})`).join(", ")} worse than the baseline after ${runs} run(s); ${confirmRuns} more alternated run(s) of both builds to confirm`,
        );
        await measureRuns(runs, runs + confirmRuns);
        const runsInAll = runs + confirmRuns;
        confirmations.push(
          confirmed(step.name, flagged, runs, runsInAll, compare(), explanations, baseline.commit),
        );
      }
    }
    const mine = barsOf.get(THIS_BUILD)!;
    ours.push(...(mine.length === 0 ? [] : medianBars(mine)));
    if (baseline !== undefined) rows.push(...measuredBy(compare(), baselineCode));
  }
} finally {
  baseline?.remove();
}
if (interrupted !== undefined) {
  log(`interrupted by ${interrupted}: baseline worktree removed, no summary written`);
  process.exit(130);
}

const totalMs = since(started);
const machine = machineInfo();
const caption = `${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, load average ${machine.loadAverage.join(" ")}; whole run ${Math.round(totalMs / 1000)} s${runs > 1 ? `; medians of ${runs} runs` : ""}`;
const missing = selected
  .filter((step) => !outcomes.some((o) => o.step === step.name && o.build === THIS_BUILD && o.ok))
  .map((step) => step.result);
const table = markdownTable(ours);
writeFileSync(
  join(RESULTS_DIR, "summary.json"),
  `${JSON.stringify({ date: new Date().toISOString(), machine, quick, runs, totalMs, steps: outcomes, missing, bars: ours }, null, 2)}\n`,
);
let summaryText = `${table}\n\n${caption}\n`;
process.stdout.write(`\n${table}\n\n${caption}\n`);
if (missing.length > 0) process.stdout.write(`missing results: ${missing.join(", ")}\n`);

if (baseline !== undefined) {
  const { text, regressed } = writeComparison(RESULTS_DIR, {
    machine,
    quick,
    runs,
    order:
      "each step alternated per run: this build first in runs 1, 3, 5, ..., the baseline first in runs 2, 4, ...",
    current: { commit: resolveCommit(repoRoot, "HEAD") },
    baseline: { ref: baseline.ref, commit: baseline.commit },
    totalMs,
    steps: outcomes,
    rows,
    explanations,
    confirmations,
    caption,
  });
  process.stdout.write(`\n${text}`);
  summaryText += `\n## Against the baseline\n\n${text}`;
  if (regressed.length > 0) process.exitCode = 1;
  const baselineRuns = outcomes.filter((o) => o.build !== THIS_BUILD);
  const failedEverywhere = selected
    .map((step) => step.name)
    .filter(
      (name) =>
        baselineRuns.some((o) => o.step === name) && !baselineRuns.some((o) => o.step === name && o.ok),
    );
  if (failedEverywhere.length > 0)
    log(`baseline steps that failed (their rows say n/a in baseline): ${failedEverywhere.join(", ")}`);
  const ownCode = [
    ...new Set(baselineRuns.filter((o) => o.ok && o.benchCode === "baseline's own").map((o) => o.step)),
  ];
  if (ownCode.length > 0)
    log(
      `baseline steps measured by the baseline's own bench code (ours failed there): ${ownCode.join(", ")}`,
    );
}
writeFileSync(join(RESULTS_DIR, "summary.md"), summaryText);
const failed = outcomes.filter((o) => o.build === THIS_BUILD && !o.ok);
if (failed.length > 0) {
  process.stdout.write(`failed steps: ${[...new Set(failed.map((o) => o.step))].join(", ")}\n`);
  process.exitCode = 1;
}
