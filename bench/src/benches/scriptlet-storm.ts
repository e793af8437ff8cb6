/**
 * `GET /1.0` while scriptlets run away (QUALITY.md: p99 < 50 ms). A real
 * berthd on a 20-member SQLite cluster; a prober sends `GET /1.0` every
 * PROBE_EVERY_MS, first with no scriptlet (the baseline, same run), then
 * while STORM_CLIENTS clients keep creating instances under a scriptlet that
 * never ends on its own (each run stops at `timeout_ms`).
 *   node dist/benches/scriptlet-storm.js [--quick]
 */
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
/** Per-run deadline of the runaway scriptlet: short enough that many runs fit in a phase. */
const TIMEOUT_MS = "1000";

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
  try {
    const baseline = distribution(await probe(server, PHASE_MS));
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
    const clients = Array.from({ length: STORM_CLIENTS }, async (_, c) => {
      for (let i = 0; running; i++) {
        const { status } = await server.request("POST", "/1.0/instances", { name: `s${c}-${i}` });
        creates++;
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    });
    const storm = distribution(await probe(server, PHASE_MS));
    running = false;
    await Promise.all(clients);
    bars.push(
      atMost(
        "server.storm.get.p99",
        `GET /1.0 p99 during a runaway-scriptlet storm (${STORM_CLIENTS} clients, timeout_ms ${TIMEOUT_MS})`,
        storm.p99,
        50,
        "ms",
      ),
      figure("server.storm.get.p50", "  same, p50", storm.p50, "ms"),
      figure("server.storm.baseline.p99", "  GET /1.0 p99 with no scriptlet, same run", baseline.p99, "ms"),
    );
    details = {
      baseline,
      storm,
      creates,
      createStatuses: statuses,
      timeoutMs: TIMEOUT_MS,
      phaseMs: PHASE_MS,
    };
    log(
      `GET /1.0 p50/p99/max: baseline ${baseline.p50}/${baseline.p99}/${baseline.max} ms, storm ${storm.p50}/${storm.p99}/${storm.max} ms (${creates} creates: ${JSON.stringify(statuses)})`,
    );
  } finally {
    await server.stop();
  }
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
