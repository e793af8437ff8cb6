/**
 * Hydration benchmark (issue #6): 10,000 members and 1,000,000 instances in
 * one file; measures start-up (openStore + snapshot) in fresh processes —
 * median of several runs — plus check() and claim latency on that file.
 * Writes ../../bench/results/adapter-sqlite-hydration.json.
 *   node bench/hydration.mjs [members] [instances] [runs]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "../dist/index.js";
import { generate } from "./generate.mjs";

const members = Number(process.argv[2] ?? 10_000);
const instances = Number(process.argv[3] ?? 1_000_000);
const runs = Number(process.argv[4] ?? 5);
const here = dirname(fileURLToPath(import.meta.url));
const resultFile = join(here, "../../../bench/results/adapter-sqlite-hydration.json");
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

const dir = mkdtempSync(join(tmpdir(), "berth-hydration-"));
const file = join(dir, "bench.db");
try {
  process.stderr.write(`generating ${members} members, ${instances} instances in ${file}\n`);
  const generationStarted = performance.now();
  await generate(file, { members, instances });
  const generationMs = performance.now() - generationStarted;

  const samples = [];
  for (let run = 0; run < runs; run++) {
    const output = execFileSync(process.execPath, ["--expose-gc", join(here, "hydrate-once.mjs"), file], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    const sample = JSON.parse(output.trim().split("\n").at(-1));
    if (sample.members !== members || sample.instances !== instances) {
      throw new Error(`hydration saw ${sample.members} members / ${sample.instances} instances`);
    }
    samples.push(sample);
    process.stderr.write(
      `  run ${run + 1}: ${round(sample.totalMs)} ms, rss ${round(sample.rssAfterMiB)} MiB\n`,
    );
  }

  // check() and claims on the same big file, in this process.
  const store = await openStore(file);
  const checkStarted = performance.now();
  const report = await store.check();
  const checkMs = performance.now() - checkStarted;
  if (!report.ok)
    throw new Error(`check() found violations: ${JSON.stringify(report.violations.slice(0, 3))}`);
  const claimTimes = [];
  for (let i = 0; i < 200; i++) {
    const member = `member-${(i % members) + 1}`;
    const started = performance.now();
    await store.claim({
      create: [
        {
          id: `bench-${i}-${Date.now()}`,
          project: "default",
          name: `bench-${i}`,
          type: "container",
          location: member,
          forthcoming: false,
          architecture: "x86_64",
          description: "",
          ephemeral: false,
          profiles: ["default"],
          config: {},
          devices: {},
          instanceType: null,
          flavor: null,
          source: null,
          placementGroup: null,
          origin: null,
          createdAt: new Date().toISOString(),
          allocations: [{ member, resourceClass: "VCPU", ledger: "used", amount: 1 }],
          limitsUsage: { cpu: 1, memoryBytes: 0, diskBytes: 0 },
          decision: null,
        },
      ],
    });
    claimTimes.push(performance.now() - started);
  }
  await store.close();

  const result = {
    benchmark: "adapter-sqlite hydration",
    members,
    instances,
    runs,
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    loadAverageAtEnd: loadavg().map((v) => round(v, 2)),
    databaseMiB: round(statSync(file).size / 2 ** 20),
    generationMs: Math.round(generationMs),
    hydration: {
      medianTotalMs: round(median(samples.map((s) => s.totalMs))),
      medianOpenMs: round(median(samples.map((s) => s.openMs))),
      medianSnapshotMs: round(median(samples.map((s) => s.snapshotMs))),
      medianRssAfterMiB: round(median(samples.map((s) => s.rssAfterMiB))),
      medianRssBeforeMiB: round(median(samples.map((s) => s.rssBeforeMiB))),
      medianHeapUsedMiB: round(median(samples.map((s) => s.heapUsedMiB))),
      instanceCountRows: samples[0].instanceCountRows,
      samples: samples.map((s) => ({ totalMs: round(s.totalMs), rssAfterMiB: round(s.rssAfterMiB) })),
    },
    checkMs: Math.round(checkMs),
    claimOneInstance: { p50Ms: round(median(claimTimes), 2), samples: claimTimes.length },
  };
  mkdirSync(dirname(resultFile), { recursive: true });
  writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
