// Benchmarks for @berth/starlark: runs every workload in ../shared/bench/starlark/, checks the
// printed output byte for byte against expected/, and reports median times, measured both
// in-process (after warm-up) and as a whole `starlark` process. Run with `pnpm bench`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, Thread } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, "..");
const repoRoot = resolve(packageDir, "../..");
const benchDir = resolve(repoRoot, "../shared/bench/starlark");
const cli = join(packageDir, "dist/cli/main.js");
/** Node flags of the `starlark` command (its shebang line), used for every measured process. */
const CLI_NODE_FLAGS = (() => {
  const shebang = readFileSync(cli, "utf8").split("\n", 1)[0];
  const m = /^#!\/usr\/bin\/env -S node(.*)$/.exec(shebang);
  if (m === null) throw new Error(`unexpected shebang in ${cli}: ${shebang}`);
  return m[1].trim().split(/\s+/).filter(Boolean);
})();
const IN_PROCESS_RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WARMUP_RUNS = 2;
const PROCESS_RUNS = Number(process.env.BENCH_PROCESS_RUNS ?? 3);

if (!existsSync(benchDir)) {
  console.error(`starlark bench: ${benchDir} not found (the shared/ folder must sit beside the repository)`);
  process.exit(2);
}

/** go.starlark.net reference figures from the workloads' README table. */
function referenceTimes() {
  const ref = {};
  const readme = readFileSync(join(benchDir, "README.md"), "utf8");
  for (const m of readme.matchAll(/^\|\s*(\w+)\s*\|\s*([\d.]+)\s*\|\s*(\d+)\s*\|$/gm)) {
    ref[m[1]] = { wallSeconds: Number(m[2]), maxRssMiB: Number(m[3]) };
  }
  return ref;
}

/** Dialect flags are declared in a `# flags:` comment (only fib_rec uses one). */
function flagsOf(source) {
  const m = /^# flags:(.*)$/m.exec(source);
  return m ? m[1].trim().split(/\s+/).filter(Boolean) : [];
}

function dialectOf(flags) {
  const d = {};
  for (const f of flags) {
    if (f === "-recursion") Object.assign(d, { recursion: true, while: true });
    else if (f === "-set") d.set = true;
    else if (f === "-while") d.while = true;
    else if (f === "-globalreassign") Object.assign(d, { globalReassign: true, topLevelControl: true });
    else throw new Error(`unknown flag ${f}`);
  }
  return d;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** One in-process run: compile, then execute on a fresh thread; returns [ms, output]. */
function runInProcess(file, source, dialect) {
  let out = "";
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const program = compile(source, { filename: file, dialect });
  program.init(new Thread({ print: (_t, msg) => (out += `${msg}\n`) }), {});
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return [wall, out, (cpu.user + cpu.system) / 1000];
}

function runProcess(file, flags) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...CLI_NODE_FLAGS, cli, ...flags, file], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${file}: exit ${r.status}: ${r.stderr}`);
  return [ms, r.stdout];
}

/**
 * In-process measurement of one workload in a fresh child process (`--in-process NAME`): run
 * sequentially in one process, a workload's CPU time also counted V8's background GC work on the
 * previous workload's garbage (fib_rec measured ~40% more after dict_heavy than alone).
 */
function measureInChild(name) {
  const r = spawnSync(
    process.execPath,
    [...CLI_NODE_FLAGS, fileURLToPath(import.meta.url), "--in-process", name],
    {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    },
  );
  if (r.status !== 0) throw new Error(`${name}: in-process child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

if (process.argv[2] === "--in-process") {
  const name = process.argv[3];
  const file = join(benchDir, `${name}.star`);
  const source = readFileSync(file, "utf8");
  const expected = readFileSync(join(benchDir, "expected", `${name}.out`), "utf8");
  const dialect = dialectOf(flagsOf(source));
  const wall = [];
  const cpu = [];
  let outputOk = true;
  for (let i = 0; i < WARMUP_RUNS + IN_PROCESS_RUNS; i++) {
    const [ms, out, cpuMs] = runInProcess(file, source, dialect);
    if (out !== expected) outputOk = false;
    if (i >= WARMUP_RUNS) {
      wall.push(ms);
      cpu.push(cpuMs);
    }
  }
  process.stdout.write(JSON.stringify({ wall, cpu, outputOk }));
  process.exit(0);
}

const reference = referenceTimes();
const workloads = readdirSync(benchDir)
  .filter((f) => f.endsWith(".star"))
  .map((f) => f.slice(0, -5))
  .sort();
/**
 * In-process children run in rounds, each round visiting every workload once: on this shared
 * VM the machine's speed drifts over seconds (the same build measured strings at 215 and 447 ms
 * minutes apart), and a slow spell then lands on different workloads in different rounds
 * instead of on all runs of one. Every round's samples are pooled for the median.
 */
const CHILD_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const pooled = new Map(workloads.map((name) => [name, { wall: [], cpu: [], outputOk: true }]));
for (let round = 0; round < CHILD_ROUNDS; round++) {
  for (const name of workloads) {
    const child = measureInChild(name);
    const pool = pooled.get(name);
    pool.wall.push(...child.wall);
    pool.cpu.push(...child.cpu);
    if (!child.outputOk) pool.outputOk = false;
  }
}

const results = [];
let failures = 0;
for (const name of workloads) {
  const file = join(benchDir, `${name}.star`);
  const source = readFileSync(file, "utf8");
  const expected = readFileSync(join(benchDir, "expected", `${name}.out`), "utf8");
  const flags = flagsOf(source);
  const child = pooled.get(name);
  const inProcess = child.wall;
  const inProcessCpu = child.cpu;
  let outputOk = child.outputOk;
  const whole = [];
  for (let i = 0; i < PROCESS_RUNS; i++) {
    const [ms, out] = runProcess(file, flags);
    if (out !== expected) outputOk = false;
    whole.push(ms);
  }
  if (!outputOk) failures++;
  const ref = reference[name];
  results.push({
    workload: name,
    outputMatches: outputOk,
    inProcessMedianMs: Number(median(inProcess).toFixed(2)),
    inProcessMedianCpuMs: Number(median(inProcessCpu).toFixed(2)),
    wholeProcessMedianMs: Number(median(whole).toFixed(1)),
    goReferenceWallMs: ref ? ref.wallSeconds * 1000 : null,
    inProcessRuns: inProcess.map((x) => Number(x.toFixed(2))),
    wholeProcessRuns: whole.map((x) => Number(x.toFixed(1))),
  });
}

const pad = (s, n) => String(s).padEnd(n);
const padl = (s, n) => String(s).padStart(n);
console.log(
  `${pad("workload", 12)}${padl("output", 8)}${padl("in-process ms", 15)}${padl("(cpu ms)", 10)}${padl("process ms", 12)}${padl("go ms", 9)}${padl("in-proc/go", 12)}`,
);
for (const r of results) {
  const ratio = r.goReferenceWallMs ? (r.inProcessMedianMs / r.goReferenceWallMs).toFixed(2) : "-";
  console.log(
    `${pad(r.workload, 12)}${padl(r.outputMatches ? "ok" : "WRONG", 8)}${padl(r.inProcessMedianMs.toFixed(1), 15)}${padl(r.inProcessMedianCpuMs.toFixed(1), 10)}${padl(r.wholeProcessMedianMs.toFixed(0), 12)}${padl(r.goReferenceWallMs ?? "-", 9)}${padl(ratio, 12)}`,
  );
}

const report = {
  package: "@berth/starlark",
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  method: {
    nodeFlags: CLI_NODE_FLAGS,
    inProcess: `median of ${CHILD_ROUNDS} x ${IN_PROCESS_RUNS} runs: ${CHILD_ROUNDS} rounds over all workloads, each a fresh Node process per workload doing ${WARMUP_RUNS} warm-up runs then ${IN_PROCESS_RUNS} measured ones (with the starlark command's Node flags); each run compiles and executes on a fresh Thread`,
    inProcessCpu:
      "process CPU time (user+system) of the same in-process runs; robust when the machine is loaded",
    wholeProcess: `median of ${PROCESS_RUNS} runs of \`node ${CLI_NODE_FLAGS.join(" ")} dist/cli/main.js [flags] FILE\` (what the bin's shebang runs), wall time including Node start-up`,
    reference: "go.starlark.net f935de8 cmd/starlark, whole process wall time, from the workloads' README",
  },
  results,
};
const outDir = join(repoRoot, "bench", "results");
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "starlark.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log(`wrote ${join(outDir, "starlark.json")}`);
if (failures > 0) {
  console.error(`${failures} workload(s) produced wrong output`);
  process.exitCode = 1;
}
