/**
 * `berth-iallocator` against Debian's hail (issue #21) on the same
 * multi-allocate inputs. Side by side, the inputs: 100 identical
 * nodes in one group and 100 (then 200) identical new instances (1024 MiB,
 * 1 vCPU, one 4 GiB plain disk), where the issue measured hail at 117 s and
 * 525 s; and 30 x 30 with mixed sizes, half DRBD (hail's pair search).
 * Berth alone at 100 x 1,000 and 1,000 x 10,000 (mixed sizes, half DRBD),
 * where hail would run for hours. Both run as the processes Ganeti would
 * start (the input file's path as the argument), so the figures include
 * start-up. Each run's CPU time (the child's user + system, from
 * /proc/self/stat) is taken beside its wall time: on this shared machine
 * wall time mostly measures waiting for a core. Berth runs three times per
 * size (median); hail once (minutes at 100 x 200).
 *
 * First, start-up (what every `gnt-instance add` waits for): Berth on three
 * of Ganeti's single-instance inputs against `node -e 0`, interleaved so
 * both see the same load, median wall and CPU time of each.
 *   node dist/benches/iallocator.js [--quick] [--no-hail-200]
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, generateCluster, HAIL, hailInstalled, SHARED_INPUTS } from "@berth/iallocator/testing";
import { median, round } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since } from "../measure/timing.js";
import { atLeast, atMost, type BarResult, type Better, figure, writeResult } from "../report/results.js";

const quick = process.argv.includes("--quick");
const hail200 = !process.argv.includes("--no-hail-200");
const TICKS_PER_SECOND = 100;
const BERTH_RUNS = 3;

interface Size {
  nodes: number;
  instances: number;
  hail: boolean;
  /** Identical new instances, all plain (the hail timings); otherwise mixed sizes, half DRBD. */
  uniform: boolean;
}

const SIZES: Size[] = quick
  ? [
      { nodes: 30, instances: 30, hail: true, uniform: false },
      { nodes: 100, instances: 1000, hail: false, uniform: false },
    ]
  : [
      { nodes: 30, instances: 30, hail: true, uniform: false },
      { nodes: 100, instances: 100, hail: true, uniform: true },
      { nodes: 100, instances: 200, hail: hail200, uniform: true },
      { nodes: 100, instances: 1000, hail: false, uniform: false },
      { nodes: 1000, instances: 10_000, hail: false, uniform: false },
    ];

/** CPU time (ms) of this process's waited-for children so far. */
function childrenCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  // After "pid (comm) ": state is field 0, cutime 13, cstime 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/** Ganeti's single-instance inputs (read in place) for the start-up figures; the slowest of them is held to the bar. */
const STARTUP_INPUTS = ["hail-alloc-drbd.json", "hail-alloc-twodisks.json", "hail-reloc-drbd.json"];
const STARTUP_RUNS = quick ? 7 : 21;
/** Issue #30: a call at most 1.5 times Node's own start-up. */
const STARTUP_LIMIT = 1.5;

/** Wall and CPU time (ms) of one child process, its output discarded. */
function timeProcess(command: string, args: string[]): Pick<Run, "wallMs" | "cpuMs"> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const out = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const wallMs = since(started);
  if (out.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${out.status}: ${out.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore };
}

function startupFigures(bars: BarResult[]): Record<string, unknown> {
  const commands = [
    { key: "node", args: ["-e", "0"] },
    ...STARTUP_INPUTS.map((file) => ({ key: file, args: [BIN, join(SHARED_INPUTS, "ganeti", file)] })),
  ];
  const runs = new Map(commands.map((c) => [c.key, [] as Pick<Run, "wallMs" | "cpuMs">[]]));
  for (let i = 0; i < STARTUP_RUNS; i++)
    for (const c of commands) runs.get(c.key)!.push(timeProcess(process.execPath, c.args));
  const medians = new Map(
    [...runs].map(([key, r]) => [
      key,
      { wallMs: round(median(r.map((x) => x.wallMs))), cpuMs: round(median(r.map((x) => x.cpuMs))) },
    ]),
  );
  const node = medians.get("node")!;
  log(`node -e 0: ${node.wallMs} ms wall, ${node.cpuMs} ms CPU (median of ${STARTUP_RUNS})`);
  // Node's own start judges no build: it is the yardstick the ratio below divides by.
  bars.push(figure("iallocator.startup.node.wall", "node -e 0 (wall)", node.wallMs, "ms", null));
  for (const file of STARTUP_INPUTS) {
    const berth = medians.get(file)!;
    log(`berth ${file}: ${berth.wallMs} ms wall, ${berth.cpuMs} ms CPU`);
    bars.push(
      figure(`iallocator.startup.berth.${file}.wall`, `berth-iallocator ${file} (wall)`, berth.wallMs, "ms"),
    );
  }
  const slowest = Math.max(...STARTUP_INPUTS.map((file) => medians.get(file)!.wallMs));
  const slowestCpu = Math.max(...STARTUP_INPUTS.map((file) => medians.get(file)!.cpuMs));
  bars.push(
    atMost(
      "iallocator.startup.ratio.wall",
      "berth-iallocator on Ganeti's single-instance inputs vs node -e 0 (wall time ratio, slowest input)",
      round(slowest / node.wallMs),
      STARTUP_LIMIT,
      "x",
    ),
    figure(
      "iallocator.startup.ratio.cpu",
      "berth-iallocator on Ganeti's single-instance inputs vs node -e 0 (CPU time ratio, slowest input)",
      round(slowestCpu / Math.max(node.cpuMs, 1)),
      "x",
      "lower",
    ),
  );
  return Object.fromEntries(medians);
}

interface Run {
  wallMs: number;
  cpuMs: number;
  placed: number;
  failed: number;
}

function run(command: string, args: string[]): Run {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const out = spawnSync(command, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const wallMs = since(started);
  const cpuMs = childrenCpuMs() - cpuBefore;
  if (out.status !== 0) throw new Error(`${command} exited ${out.status}: ${out.stderr}`);
  const answer = JSON.parse(out.stdout) as { success: boolean; result: [unknown[], unknown[]] };
  const [placed, failed] = answer.success ? answer.result : [[], []];
  return { wallMs: round(wallMs), cpuMs: round(cpuMs), placed: placed.length, failed: failed.length };
}

/** The CPU and wall figures of one allocator at one size. */
function timeFigures(
  who: string,
  key: string,
  size: Size,
  measured: Pick<Run, "cpuMs" | "wallMs">,
  /** null for hail: its time says nothing about a Berth build. */
  better: Better = "lower",
): BarResult[] {
  const id = `iallocator.${key}.${size.nodes}x${size.instances}`;
  const what = `${who} multi-allocate ${size.nodes} x ${size.instances}${size.uniform ? " identical" : ""}`;
  return [
    figure(`${id}.cpu`, `${what} (CPU)`, measured.cpuMs, "ms", better),
    figure(`${id}.wall`, `${what} (wall)`, measured.wallMs, "ms", better),
  ];
}

const started = performance.now();
const bars: BarResult[] = [];
const details: Record<string, unknown> = { hailInstalled, sizes: [] as unknown[] };
if (existsSync(SHARED_INPUTS)) details.startup = startupFigures(bars);
else log(`start-up figures skipped: Ganeti's inputs are not at ${SHARED_INPUTS}`);
const { dir, cleanup } = tempDir("iallocator");
try {
  for (const size of SIZES) {
    const label = `${size.nodes} x ${size.instances}`;
    const input = generateCluster({
      nodes: size.nodes,
      groups: 1,
      existing: 0,
      requested: size.instances,
      drbdShare: size.uniform ? 0 : 0.5,
      uniform: size.uniform,
      seed: size.nodes * 7919 + size.instances,
    });
    const path = join(dir, `input-${size.nodes}x${size.instances}.json`);
    writeFileSync(path, JSON.stringify(input));
    const berthRuns = Array.from({ length: BERTH_RUNS }, () => run(process.execPath, [BIN, path]));
    const berth = {
      wallMs: median(berthRuns.map((r) => r.wallMs)),
      cpuMs: median(berthRuns.map((r) => r.cpuMs)),
      placed: berthRuns[0]!.placed,
      failed: berthRuns[0]!.failed,
    };
    log(
      `berth ${label}: ${berth.wallMs} ms wall, ${berth.cpuMs} ms CPU, ${berth.placed} placed, ${berth.failed} failed`,
    );
    bars.push(...timeFigures("berth-iallocator", "berth", size, berth));
    let hail: Run | null = null;
    if (size.hail && hailInstalled) {
      hail = run(HAIL, [path]);
      log(`hail ${label}: ${hail.wallMs} ms wall, ${hail.cpuMs} ms CPU, ${hail.placed} placed`);
      bars.push(...timeFigures("hail", "hail", size, hail, null));
      const speedup = round(hail.cpuMs / Math.max(berth.cpuMs, 1), 1);
      const id = `iallocator.speedup.${size.nodes}x${size.instances}`;
      const what = `berth-iallocator vs hail, multi-allocate ${label} (CPU time ratio)`;
      bars.push(
        size.nodes === 100 && size.instances === 100
          ? atLeast(id, what, speedup, 100, "x")
          : figure(id, what, speedup, "x", "higher"),
      );
      if (berth.placed < hail.placed)
        throw new Error(`Berth placed ${berth.placed} < hail's ${hail.placed} at ${label}`);
    }
    (details.sizes as unknown[]).push({ ...size, berth, berthRuns, hail });
  }
} finally {
  cleanup();
}
writeResult("iallocator.json", { benchmark: "iallocator", durationMs: since(started), bars, details });
