/**
 * `GET /1.0` while scriptlets run away (bar: p99 < 50 ms). A real
 * berthd on a 20-member SQLite cluster; a prober sends `GET /1.0` every
 * PROBE_EVERY_MS, first with no scriptlet (the baseline, same run), then
 * while STORM_CLIENTS clients keep creating instances under a scriptlet that
 * never ends on its own (each run stops at `timeout_ms`). berthd runs
 * scriptlets in worker threads; the same storm against a berthd started
 * with `--scriptlet-workers 0` (scriptlets on the event loop, as before #17)
 * is the comparison, measured in the same run.
 *   node dist/benches/scriptlet-storm.js [--quick]
 */
import { loadavg } from "node:os";
import { RUNAWAY_SCRIPTLET } from "../cluster/scriptlets.js";
import { distribution } from "../measure/stats.js";
import { log, since } from "../measure/timing.js";
import { smallCluster } from "../reliability/cluster.js";
import { atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const PHASE_MS = quick ? 4_000 : 12_000;
const PROBE_EVERY_MS = 20;
const STORM_CLIENTS = 4;
/** The event-loop comparison needs fewer samples: each one waits out a whole run. */
const COMPARISON_MS = quick ? 3_000 : 6_000;
/** Per-run deadline of the runaway scriptlet: short enough that many runs fit in a phase. */
const TIMEOUT_MS = "1000";

/** `GET /1.0` latencies while STORM_CLIENTS clients keep creating under the runaway scriptlet. */
async function storm(server: Berthd, ms: number) {
  const set = await server.request("PATCH", "/1.0", {
    config: {
      "instances.placement.scriptlet.timeout_ms": TIMEOUT_MS,
      "instances.placement.scriptlet": RUNAWAY_SCRIPTLET,
    },
  });
  if (set.status !== 200) throw new Error(`setting the scriptlet answered ${set.status}`);
  let running = true;
  let creates = 0;
  const statuses: Record<number, number> = {};
  const prefix = `s${Math.random().toString(36).slice(2, 8)}`;
  const clients = Array.from({ length: STORM_CLIENTS }, async (_, c) => {
    for (let i = 0; running; i++) {
      const { status } = await server.request("POST", "/1.0/instances", { name: `${prefix}-${c}-${i}` });
      creates++;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  const latencies = distribution(await probe(server, ms));
  running = false;
  await Promise.all(clients);
  const clear = await server.request("PATCH", "/1.0", { config: { "instances.placement.scriptlet": "" } });
  if (clear.status !== 200) throw new Error(`clearing the scriptlet answered ${clear.status}`);
  return { latencies, creates, statuses };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Latencies of `GET /1.0` sent every PROBE_EVERY_MS for `ms`. */
async function probe(server: Berthd, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    const { status } = await server.request("GET", "/1.0");
    if (status !== 200) throw new Error(`GET /1.0 answered ${status}`);
    latencies.push(performance.now() - started);
    await sleep(PROBE_EVERY_MS);
  }
  return latencies;
}

const started = performance.now();
const cluster = await smallCluster("storm", 20, { VCPU: { total: 64 }, MEMORY_MB: { total: 262144 } });
const bars: BarResult[] = [];
let details: Record<string, unknown> = {};
try {
  const server = await Berthd.start({ db: cluster.db, token: cluster.token, logLevel: "warn" });
  let baseline: ReturnType<typeof distribution>;
  let inWorkers: Awaited<ReturnType<typeof storm>>;
  try {
    baseline = distribution(await probe(server, PHASE_MS));
    inWorkers = await storm(server, PHASE_MS);
  } finally {
    await server.stop();
  }
  // The same storm with scriptlets on the event loop (the comparison), on the same database.
  const blocking = await Berthd.start({
    db: cluster.db,
    token: cluster.token,
    logLevel: "warn",
    env: { BERTH_SCRIPTLET_WORKERS: "0" },
  });
  let onLoop: Awaited<ReturnType<typeof storm>>;
  try {
    onLoop = await storm(blocking, COMPARISON_MS);
  } finally {
    await blocking.stop();
  }
  const load = loadavg().map((n) => n.toFixed(2));
  bars.push(
    atMost(
      "server.storm.get.p99",
      `GET /1.0 p99 during a runaway-scriptlet storm (${STORM_CLIENTS} clients, timeout_ms ${TIMEOUT_MS}, scriptlets in worker threads)`,
      inWorkers.latencies.p99,
      50,
      "ms",
    ),
    figure("server.storm.get.p50", "  same, p50", inWorkers.latencies.p50, "ms"),
    figure("server.storm.baseline.p99", "  GET /1.0 p99 with no scriptlet, same run", baseline.p99, "ms"),
    figure(
      "server.storm.event-loop.p99",
      "  GET /1.0 p99 during the same storm with scriptlets on the event loop (--scriptlet-workers 0), same run",
      onLoop.latencies.p99,
      "ms",
    ),
  );
  details = {
    baseline,
    storm: inWorkers.latencies,
    creates: inWorkers.creates,
    createStatuses: inWorkers.statuses,
    stormOnEventLoop: onLoop.latencies,
    createsOnEventLoop: onLoop.creates,
    timeoutMs: TIMEOUT_MS,
    phaseMs: PHASE_MS,
    loadAverage: load,
  };
  log(
    `GET /1.0 p50/p99/max: baseline ${baseline.p50}/${baseline.p99}/${baseline.max} ms, storm in workers ${inWorkers.latencies.p50}/${inWorkers.latencies.p99}/${inWorkers.latencies.max} ms (${inWorkers.creates} creates: ${JSON.stringify(inWorkers.statuses)}), storm on the event loop ${onLoop.latencies.p50}/${onLoop.latencies.p99}/${onLoop.latencies.max} ms; load average ${load.join(" ")}`,
  );
} finally {
  cluster.cleanup();
}
writeResult("scriptlet-storm.json", {
  benchmark: "GET /1.0 during a runaway-scriptlet storm",
  durationMs: since(started),
  bars,
  details,
});
for (const bar of bars)
  log(`${bar.bar}: ${bar.measured} ${bar.unit} ${bar.met === null ? "" : bar.met ? "(met)" : "(NOT met)"}`);
