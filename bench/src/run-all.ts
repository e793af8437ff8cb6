/**
 * `pnpm bench` at the repository root: every benchmark, one at a time, each in
 * its own process (so one's heap does not disturb the next), then one combined
 * table and bench/results/summary.json (+ summary.md).
 *   node bench/dist/run-all.js [--quick] [--only=placement,http,...]
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { machineInfo } from "./measure/machine.js";
import { log, since } from "./measure/timing.js";
import { RESULTS_DIR } from "./report/results.js";
import { collectBars, markdownTable } from "./report/summary.js";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..");
const quick = process.argv.includes("--quick");
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");

interface Step {
  name: string;
  /** Result file the step writes (removed first, so a failed step never leaves a stale figure). */
  result: string;
  command: string[];
  cwd: string;
  own: boolean;
}

/** pnpm as this process was started with (`npm_execpath`), else the pinned version through npx. */
function pnpm(args: string[]): string[] {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes("pnpm")) return [process.execPath, execPath, ...args];
  return ["npx", "--yes", "pnpm@10.34.8", ...args];
}

const ownBench = (file: string, heapMiB?: number) => [
  process.execPath,
  ...(heapMiB === undefined ? [] : [`--max-old-space-size=${heapMiB}`]),
  join(here, "benches", file),
  ...(quick ? ["--quick"] : []),
];

const STEPS: Step[] = [
  {
    name: "starlark",
    result: "starlark.json",
    command: pnpm(["--filter", "@berth/starlark", "run", "bench"]),
    cwd: repoRoot,
    own: false,
  },
  {
    name: "adapter-hydration",
    result: "adapter-sqlite-hydration.json",
    command: pnpm([
      "--filter",
      "@berth/adapter-sqlite",
      "run",
      "bench",
      ...(quick ? ["10000", "100000", "3"] : []),
    ]),
    cwd: repoRoot,
    own: false,
  },
  {
    name: "placement",
    result: "placement.json",
    command: ownBench("placement.js", 8192),
    cwd: here,
    own: true,
  },
  { name: "http", result: "http.json", command: ownBench("http.js"), cwd: here, own: true },
  {
    name: "placement-api",
    result: "placement-api.json",
    command: [
      ...ownBench("placement-api.js"),
      ...process.argv.filter((a) => a === "--no-reference" || a.startsWith("--baseline=")),
    ],
    cwd: here,
    own: true,
  },
  {
    name: "postgres",
    result: "postgres.json",
    command: [...ownBench("postgres.js"), ...process.argv.filter((a) => a.startsWith("--baseline="))],
    cwd: here,
    own: true,
  },
  {
    name: "scriptlet-storm",
    result: "scriptlet-storm.json",
    command: ownBench("scriptlet-storm.js"),
    cwd: here,
    own: true,
  },
  {
    name: "server-footprint",
    result: "server-footprint.json",
    command: ownBench("server-footprint.js"),
    cwd: here,
    own: true,
  },
  {
    name: "console-render",
    result: "console-render.json",
    command: ownBench("console-render.js"),
    cwd: here,
    own: true,
  },
  {
    name: "iallocator",
    result: "iallocator.json",
    command: [...ownBench("iallocator.js"), ...process.argv.filter((a) => a === "--no-hail-200")],
    cwd: here,
    own: true,
  },
];

const started = performance.now();
const steps: { name: string; ok: boolean; ms: number }[] = [];
for (const step of STEPS) {
  if (only !== undefined && !only.includes(step.name)) continue;
  rmSync(join(RESULTS_DIR, step.result), { force: true });
  log(`=== ${step.name}: ${step.command.slice(1).join(" ")}`);
  const stepStarted = performance.now();
  const [command, ...args] = step.command;
  const outcome = spawnSync(command!, args, { cwd: step.cwd, stdio: ["ignore", "inherit", "inherit"] });
  const ok = outcome.status === 0;
  steps.push({ name: step.name, ok, ms: since(stepStarted) });
  log(
    `=== ${step.name}: ${ok ? "done" : `FAILED (exit ${outcome.status ?? outcome.signal})`} in ${Math.round(since(stepStarted) / 1000)} s`,
  );
}

const selected = STEPS.filter((s) => only === undefined || only.includes(s.name));
const { bars, missing } = collectBars(selected.filter((s) => s.own).map((s) => s.result));
const table = markdownTable(bars);
const totalMs = since(started);
const summary = {
  date: new Date().toISOString(),
  machine: machineInfo(),
  quick,
  totalMs,
  steps,
  missing,
  bars,
};
writeFileSync(join(RESULTS_DIR, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
const machine = summary.machine;
const caption = `${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, load average ${machine.loadAverage.join(" ")}; whole run ${Math.round(totalMs / 1000)} s`;
writeFileSync(join(RESULTS_DIR, "summary.md"), `${table}\n\n${caption}\n`);
process.stdout.write(`\n${table}\n\n${caption}\n`);
if (missing.length > 0) process.stdout.write(`missing results: ${missing.join(", ")}\n`);
const failed = steps.filter((s) => !s.ok);
if (failed.length > 0) {
  process.stdout.write(`failed steps: ${failed.map((s) => s.name).join(", ")}\n`);
  process.exitCode = 1;
}
