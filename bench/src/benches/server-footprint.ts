/**
 * berthd at 10,000 members / 1,000,000 instances (bars: <= 512 MiB RSS, start-up <= 10 s): the
 * database is generated once per run, then the real berthd is started on it
 * several times; each start measures spawn -> first successful `GET /1.0`,
 * and RSS (VmRSS, and the peak VmHWM) after start-up and after a burst of
 * placements. Medians over the starts.
 *   node dist/benches/server-footprint.js [--quick]
 */
import { join } from "node:path";
import { prepareClusterFile } from "../cluster/prepare-apart.js";
import { type ClusterShape, describeShape } from "../cluster/shape.js";
import { distribution, median } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since, timeEach } from "../measure/timing.js";
import { atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const SHAPE: ClusterShape = quick
  ? { members: 10_000, instances: 100_000 }
  : { members: 10_000, instances: 1_000_000 };
const STARTS = 3;
/**
 * A deadline against a hang, not the target (the row judges the median start):
 * the first start on the fresh file took 62 s on this shared VM at load 18.
 */
const START_DEADLINE_MS = 300_000;
const PLACEMENTS_PER_START = 200;

const started = performance.now();
const { dir, cleanup } = tempDir("footprint");
const bars: BarResult[] = [];
const runs: Record<string, unknown>[] = [];
let generationMs = 0;
try {
  const db = join(dir, "berth.db");
  const generationStarted = performance.now();
  const token = await prepareClusterFile(db, SHAPE);
  generationMs = since(generationStarted);
  for (let run = 0; run < STARTS; run++) {
    const server = await Berthd.start({ db, token, startTimeoutMs: START_DEADLINE_MS });
    const afterStart = server.memory();
    const placements = await timeEach(PLACEMENTS_PER_START, async (i) => {
      const { status } = await server.request("POST", "/1.0/instances", {
        name: `f${run}-${i}`,
        config: { "limits.cpu": "1", "limits.memory": "1GiB" },
      });
      if (status !== 201) throw new Error(`create answered ${status}`);
    });
    const afterPlacements = server.memory();
    await server.stop();
    const figures = {
      startupMs: server.startupMs,
      rssAfterStartMiB: afterStart.rssMiB,
      rssAfterPlacementsMiB: afterPlacements.rssMiB,
      peakRssMiB: afterPlacements.peakRssMiB,
      placementMs: distribution(placements),
    };
    runs.push(figures);
    log(
      `start ${run + 1}: up in ${figures.startupMs} ms, RSS ${figures.rssAfterStartMiB} MiB, after ${PLACEMENTS_PER_START} placements ${figures.rssAfterPlacementsMiB} MiB (peak ${figures.peakRssMiB}), placement p50 ${figures.placementMs.p50} ms`,
    );
  }
} finally {
  cleanup();
}
const medianOf = (key: string) => median(runs.map((r) => r[key] as number));
const where = describeShape(SHAPE);
bars.push(
  atMost(
    "server.startup",
    `berthd start-up, ${where} (spawn to first answer), median`,
    medianOf("startupMs"),
    10_000,
    "ms",
  ),
  atMost(
    "server.rss",
    `berthd RSS, ${where}, peak (VmHWM) after start-up and ${PLACEMENTS_PER_START} placements, median`,
    medianOf("peakRssMiB"),
    512,
    "MiB",
  ),
  figure(
    "server.rss.settled",
    "  same, VmRSS after the placements, median",
    medianOf("rssAfterPlacementsMiB"),
    "MiB",
  ),
  figure(
    "server.generate",
    `  generating the ${where} database and a token (bulk SQL in a child process, not a Berth path)`,
    generationMs,
    "ms",
    null,
  ),
);
writeResult("server-footprint.json", {
  benchmark: "berthd memory and start-up",
  durationMs: since(started),
  bars,
  details: { shape: SHAPE, generationMs, runs },
});
for (const bar of bars)
  log(`${bar.bar}: ${bar.measured} ${bar.unit} ${bar.met === null ? "" : bar.met ? "(met)" : "(NOT met)"}`);
