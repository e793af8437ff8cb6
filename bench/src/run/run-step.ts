/** One run of one step against one checkout, and the rows it left in that checkout's bench/results. */
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { log, since } from "../measure/timing.js";
import type { BarResult } from "../report/results.js";
import { readBars } from "../report/summary.js";
import type { BenchCode } from "./bench-code.js";
import type { Step } from "./steps.js";

/** The name of the build of this checkout (the other is the baseline's, `baseline REF`). */
export const THIS_BUILD = "this build";

export interface StepOutcome {
  step: string;
  /** "this build" or the baseline's name. */
  build: string;
  run: number;
  ok: boolean;
  /** How it ended when not ok: the exit code or signal. */
  exit?: string;
  ms: number;
  /** The bench code that ran: this checkout's, or (a baseline's fallback) REF's own (bench-code.ts). */
  benchCode: BenchCode;
}

/** The results folder of the checkout at `root`. */
export const resultsDirOf = (root: string) => join(root, "bench", "results");

/** The step's process while one runs, so an interrupt can stop it before the baseline's worktree goes. */
let running: ChildProcess | undefined;

/** Sends `signal` to the running step's process, if any. */
export function signalRunningStep(signal: NodeJS.Signals): void {
  running?.kill(signal);
}

/** The child's end: its exit code, or the signal that ended it, or why it could not start. */
function ended(child: ChildProcess): Promise<{ status: number | null; reason: string }> {
  return new Promise((resolve) => {
    child.once("error", (error) => resolve({ status: null, reason: error.message }));
    child.once("exit", (code, signal) => resolve({ status: code, reason: String(code ?? signal) }));
  });
}

/**
 * Runs `step` for the checkout at `root` (its stale result removed first);
 * bars undefined when it left none. Asynchronous, so that SIGINT/SIGTERM
 * handlers run while a step does.
 */
export async function runStep(
  step: Step,
  root: string,
  build: string,
  run: number,
  benchCode: BenchCode = "this checkout",
): Promise<{ outcome: StepOutcome; bars: BarResult[] | undefined }> {
  const resultsDir = resultsDirOf(root);
  rmSync(join(resultsDir, step.result), { force: true });
  const { argv, cwd } = step.command(root);
  const code = benchCode === "this checkout" ? "" : ", its own bench code";
  log(`=== ${step.name} (${build}${code}, run ${run + 1}): ${argv.slice(1).join(" ")}`);
  const started = performance.now();
  const [command, ...args] = argv;
  running = spawn(command!, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  const { status, reason } = await ended(running);
  running = undefined;
  const ok = status === 0;
  const ms = since(started);
  const exit = ok ? undefined : reason;
  log(`=== ${step.name} (${build}): ${ok ? "done" : `FAILED (exit ${exit})`} in ${Math.round(ms / 1000)} s`);
  const outcome: StepOutcome = {
    step: step.name,
    build,
    run,
    ok,
    ms,
    benchCode,
    ...(exit === undefined ? {} : { exit }),
  };
  return { outcome, bars: ok ? readBars(resultsDir, step.result) : undefined };
}
