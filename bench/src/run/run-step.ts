/** One run of one step against one checkout, and the rows it left in that checkout's bench/results. */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { log, since } from "../measure/timing.js";
import type { BarResult } from "../report/results.js";
import { readBars } from "../report/summary.js";
import type { Step } from "./steps.js";

export interface StepOutcome {
  step: string;
  /** "this build" or the baseline's name. */
  build: string;
  run: number;
  ok: boolean;
  /** How it ended when not ok: the exit code or signal. */
  exit?: string;
  ms: number;
}

/** The results folder of the checkout at `root`. */
export const resultsDirOf = (root: string) => join(root, "bench", "results");

/** Runs `step` for the checkout at `root` (its stale result removed first); bars undefined when it left none. */
export function runStep(
  step: Step,
  root: string,
  build: string,
  run: number,
): { outcome: StepOutcome; bars: BarResult[] | undefined } {
  const resultsDir = resultsDirOf(root);
  rmSync(join(resultsDir, step.result), { force: true });
  const { argv, cwd } = step.command(root);
  log(`=== ${step.name} (${build}, run ${run + 1}): ${argv.slice(1).join(" ")}`);
  const started = performance.now();
  const [command, ...args] = argv;
  const result = spawnSync(command!, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  const ok = result.status === 0;
  const ms = since(started);
  const exit = ok ? undefined : String(result.status ?? result.signal ?? result.error?.message);
  log(`=== ${step.name} (${build}): ${ok ? "done" : `FAILED (exit ${exit})`} in ${Math.round(ms / 1000)} s`);
  const outcome: StepOutcome = {
    step: step.name,
    build,
    run,
    ok,
    ms,
    ...(exit === undefined ? {} : { exit }),
  };
  return { outcome, bars: ok ? readBars(resultsDir, step.result) : undefined };
}
