/**
 * Placements over HTTP against the real berthd (the Performance bars: one
 * placement over HTTP, sustained creates, bulk create):
 * 1,000 members / 100,000 instances in a SQLite file, then
 *  - one create at a time (latency p50/p99), just after start-up and in steady state,
 *  - sustained creates with autocannon (unique names per request), 2xx per second,
 *  - bulk create of 10,000 over HTTP,
 * and, with berthd stopped, bulk create of 10,000 in-process on the same file
 * (engine + SQLite store, committed).
 *   node dist/benches/http.js [--quick]
 */
import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import { Engine } from "@berth/engine";
import autocannon from "autocannon";
import { prepareClusterFile } from "../cluster/prepare-apart.js";
import { type ClusterShape, describeShape } from "../cluster/shape.js";
import { distribution, median, round } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since, timeEach, timeEachAgainst, timeEachWithCpu } from "../measure/timing.js";
import { atLeast, atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const SHAPE: ClusterShape = { members: 1000, instances: quick ? 10_000 : 100_000 };
const LATENCY_SAMPLES = quick ? 200 : 1000;
/** Creates before the just-started sample, and then before the steady-state one. */
const COLD_WARM_UP = 50;
const STEADY_WARM_UP = quick ? 300 : 2_000;
const SUSTAINED_SECONDS = quick ? 3 : 10;
const SUSTAINED_CONNECTIONS = 16;
const BULK_SIZE = 10_000;
const BULK_RUNS = quick ? 1 : 3;
const REQUEST_CONFIG = { "limits.cpu": "1", "limits.memory": "1GiB" };

const started = performance.now();
const { dir, cleanup } = tempDir("http-bench");
const bars: BarResult[] = [];
const details: Record<string, unknown> = { shape: SHAPE };
try {
  const db = join(dir, "berth.db");
  const token = await prepareClusterFile(db, SHAPE);
  const server = await Berthd.start({ db, token });
  log(`berthd up in ${server.startupMs} ms on ${server.url}`);
  let counter = 0;

  // One request at a time: what a single client sees. Measured twice: right after start-up (50
  // creates in), when V8 is still compiling berthd's create path (--trace-opt: compiling for about
  // the first 2,500 creates, 3.0 s of compile over 4,200), and again in steady state, as a running
  // berthd answers (the bar; the in-process placement bench warms up the same way).
  await timeEach(COLD_WARM_UP, () =>
    server.request("POST", "/1.0/instances", { name: `w${++counter}`, config: REQUEST_CONFIG }),
  );
  const singleCreates = async () => {
    // Each create's berthd CPU time (every thread, /proc schedstat), read between the requests.
    const { wall, clock } = await timeEachAgainst(
      LATENCY_SAMPLES,
      async () => {
        const { status } = await server.request("POST", "/1.0/instances", {
          name: `l${++counter}`,
          config: REQUEST_CONFIG,
        });
        if (status !== 201) throw new Error(`create answered ${status}`);
      },
      () => server.cpuPreciseMs(),
    );
    // berthd's own CPU per create: what the request costs the server, apart from waiting for a core.
    // The p50 beside the mean: a create that met a garbage collection or a compilation moves the mean alone.
    return { latency: distribution(wall), serverCpu: distribution(clock) };
  };
  const cold = await singleCreates();
  log(
    `one create at a time over HTTP, just started: p50 ${cold.latency.p50} ms, p99 ${cold.latency.p99} ms, berthd CPU ${round(cold.serverCpu.mean, 3)} ms per create (p50 ${cold.serverCpu.p50} ms)`,
  );
  await timeEach(STEADY_WARM_UP, () =>
    server.request("POST", "/1.0/instances", { name: `w${++counter}`, config: REQUEST_CONFIG }),
  );
  const { latency, serverCpu } = await singleCreates();
  const serverCpuPerCreateMs = round(serverCpu.mean, 3);
  log(
    `one create at a time over HTTP, steady state: p50 ${latency.p50} ms, p99 ${latency.p99} ms, berthd CPU ${serverCpuPerCreateMs} ms per create (p50 ${serverCpu.p50} ms)`,
  );

  // Sustained load: autocannon keeps SUSTAINED_CONNECTIONS requests in flight for a fixed time.
  const cpuBeforeSustained = server.cpuMs();
  const sustained = await autocannon({
    url: `${server.url}/1.0/instances`,
    connections: SUSTAINED_CONNECTIONS,
    duration: SUSTAINED_SECONDS,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ name: `s${++counter}`, config: REQUEST_CONFIG }),
        }),
      },
    ],
  });
  const createsPerSecond = Math.round(sustained["2xx"] / SUSTAINED_SECONDS);
  // Share of one core berthd used (1 = a core saturated: the server's CPU is the bound, not waiting).
  const sustainedServerCores = round((server.cpuMs() - cpuBeforeSustained) / (SUSTAINED_SECONDS * 1000), 2);
  log(
    `sustained creates: ${createsPerSecond}/s (2xx ${sustained["2xx"]}, non-2xx ${sustained.non2xx}, errors ${sustained.errors}, p50 ${sustained.latency.p50} ms, p99 ${sustained.latency.p99} ms, berthd used ${sustainedServerCores} cores)`,
  );

  // Bulk over HTTP.
  const bulkHttp = await timeEach(BULK_RUNS, async (run) => {
    const instances = Array.from({ length: BULK_SIZE }, (_, i) => ({
      name: `bh${run}-${i}`,
      config: REQUEST_CONFIG,
    }));
    const { status, json } = await server.request("POST", "/1.0/instances/bulk", { instances });
    if (status !== 201 && status !== 200)
      throw new Error(`bulk answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
  });
  log(`bulk create of ${BULK_SIZE} over HTTP: ${bulkHttp.map((t) => Math.round(t)).join(", ")} ms`);
  const memory = server.memory();
  await server.stop();

  // The same single creates in-process on the same file (engine + SQLite store, no HTTP):
  // separates the server's share of the latency from the store's.
  const store = await openStore(db);
  const engine = await Engine.open({ store });
  await timeEach(50, () => engine.instances.create({ name: `wi${++counter}`, config: REQUEST_CONFIG }));
  const inProcessCreate = distribution(
    await timeEach(LATENCY_SAMPLES / 2, () =>
      engine.instances.create({ name: `li${++counter}`, config: REQUEST_CONFIG }),
    ),
  );
  log(
    `one create at a time in-process on SQLite: p50 ${inProcessCreate.p50} ms, p99 ${inProcessCreate.p99} ms`,
  );

  // Bulk in-process on the same file: engine + SQLite store, one committed claim.
  const bulkInProcess = await timeEachWithCpu(BULK_RUNS, (run) =>
    engine.instances.bulkCreate(
      Array.from({ length: BULK_SIZE }, (_, i) => ({ name: `bp${run}-${i}`, config: REQUEST_CONFIG })),
    ),
  );
  log(
    `bulk create of ${BULK_SIZE} in-process (SQLite): ${bulkInProcess.wall.map((t) => Math.round(t)).join(", ")} ms (CPU ${bulkInProcess.cpu.map((t) => Math.round(t)).join(", ")} ms)`,
  );
  const check = await store.check();
  await store.close();
  if (!check.ok)
    throw new Error(`check() after the benchmark: ${JSON.stringify(check.violations.slice(0, 3))}`);

  Object.assign(details, {
    startupMs: server.startupMs,
    latency,
    serverCpuPerCreateMs,
    serverCpuPerCreate: serverCpu,
    justStarted: { warmUpCreates: COLD_WARM_UP, latency: cold.latency, serverCpuPerCreate: cold.serverCpu },
    steadyWarmUpCreates: COLD_WARM_UP + LATENCY_SAMPLES + STEADY_WARM_UP,
    inProcessSqliteCreate: inProcessCreate,
    sustained: {
      connections: SUSTAINED_CONNECTIONS,
      seconds: SUSTAINED_SECONDS,
      ok2xx: sustained["2xx"],
      non2xx: sustained.non2xx,
      errors: sustained.errors,
      timeouts: sustained.timeouts,
      createsPerSecond,
      serverCores: sustainedServerCores,
      latencyMs: { p50: sustained.latency.p50, p99: sustained.latency.p99 },
    },
    bulkHttpMs: bulkHttp,
    bulkInProcessMs: bulkInProcess.wall,
    bulkInProcessCpuMs: bulkInProcess.cpu,
    serverMemoryAfter: memory,
  });
  const where = describeShape(SHAPE);
  bars.push(
    atMost(
      "http.create.p50",
      `one placement over HTTP, ${where}, default policy, steady state, p50`,
      latency.p50,
      3,
      "ms",
    ),
    figure("http.create.p99", "  same, p99", latency.p99, "ms"),
    figure("http.create.server-cpu", "  same, berthd CPU time per create (mean)", serverCpuPerCreateMs, "ms"),
    figure("http.create.server-cpu.p50", "  same, berthd CPU time per create (p50)", serverCpu.p50, "ms"),
    figure(
      "http.create.cold.p50",
      "  same, just after start-up (V8 still compiling), p50",
      cold.latency.p50,
      "ms",
    ),
    figure(
      "http.create.cold.server-cpu.p50",
      "  same, just after start-up, berthd CPU time per create (p50)",
      cold.serverCpu.p50,
      "ms",
    ),
    figure(
      "sqlite.create.p50",
      "  same placement in-process on the SQLite store (no HTTP), p50",
      inProcessCreate.p50,
      "ms",
    ),
    atLeast(
      "http.sustained",
      `sustained creates over HTTP, ${SHAPE.members.toLocaleString("en-US")} members, ${SUSTAINED_CONNECTIONS} connections, ${SUSTAINED_SECONDS} s (2xx/s)`,
      sustained.non2xx === 0 && sustained.errors === 0 ? createsPerSecond : 0,
      1000,
      "placements/s",
    ),
    figure(
      "http.sustained.server-cores",
      "  same, berthd CPU use (1 = one core busy all the time)",
      sustainedServerCores,
      "cores",
    ),
    atMost(
      "bulk.in-process",
      `bulk create ${BULK_SIZE.toLocaleString("en-US")} on ${SHAPE.members.toLocaleString("en-US")} members, all-or-nothing, committed to SQLite (engine in-process), median`,
      Math.round(median(bulkInProcess.wall)),
      2000,
      "ms",
    ),
    figure(
      "bulk.in-process.cpu",
      "  same, CPU time of the process (incl. GC threads), median",
      Math.round(median(bulkInProcess.cpu)),
      "ms",
    ),
    figure(
      "bulk.http",
      "  same over HTTP (POST /1.0/instances/bulk), median",
      Math.round(median(bulkHttp)),
      "ms",
    ),
  );
} finally {
  cleanup();
}
writeResult("http.json", {
  benchmark: "placements over HTTP and bulk create",
  durationMs: since(started),
  bars,
  details,
});
for (const bar of bars)
  log(`${bar.bar}: ${bar.measured} ${bar.unit} ${bar.met === null ? "" : bar.met ? "(met)" : "(NOT met)"}`);
