/**
 * The OpenStack Placement API served by berthd, at the Placement kit's
 * performance anchor (../shared/placement-gabbits README: 1,000 providers,
 * 20,000 consumers), and the real Placement 8.0.0 measured with the same
 * requests in the same run where it can be started (Debian python3-placement
 * + uWSGI), with the ratios. With `--baseline=PATH` (another build's
 * apps/server/dist/main.js, e.g. main's before a change; its own `berthd
 * token create` makes its database) that berthd is measured too, for
 * before/after figures in one run. Rounds alternate between the services so
 * the machine's load falls on all alike.
 *   node dist/benches/placement-api.js [--quick] [--no-reference] [--baseline=PATH]
 */
import { join } from "node:path";
import { distribution, median, round } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since } from "../measure/timing.js";
import { PlacementClient } from "../placement-api/client.js";
import { type HttpFloor, startFloor } from "../placement-api/floor.js";
import { type ReferencePlacement, referenceMissing, startReference } from "../placement-api/reference.js";
import { createData, measure, QUERY, type Setup, type Timings } from "../placement-api/workload.js";
import { atMost, type BarResult, type Better, figure, writeResult } from "../report/results.js";
import { Berthd, createToken, createTokenWith } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const PROVIDERS = quick ? 200 : 1_000;
const CONSUMERS = quick ? 4_000 : 20_000;
/** Rounds per service, alternated, and calls of each request per round. */
const ROUNDS = 3;
const CALLS = quick ? 7 : 20;

const started = performance.now();
const { dir, cleanup } = tempDir("placement-api");
const bars: BarResult[] = [];
const details: Record<string, unknown> = {
  providers: PROVIDERS,
  consumers: CONSUMERS,
  rounds: ROUNDS,
  calls: CALLS,
};
const baselineMain = process.argv.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);
const BASELINE = "berthd (baseline)";
const FLOOR = "HTTP floor";
let server: Berthd | undefined;
let floor: HttpFloor | undefined;
let baseline: Berthd | undefined;
let reference: ReferencePlacement | undefined;
try {
  const db = join(dir, "berth.db");
  const token = await createToken(db, "bench");
  server = await Berthd.start({ db, token, logLevel: "warn" });
  const services: PlacementClient[] = [new PlacementClient("berthd", `${server.url}/placement`, token)];
  if (baselineMain !== undefined) {
    const baselineDb = join(dir, "baseline.db");
    const baselineToken = createTokenWith(baselineMain, baselineDb, "bench");
    baseline = await Berthd.start({
      db: baselineDb,
      token: baselineToken,
      logLevel: "warn",
      main: baselineMain,
    });
    services.push(new PlacementClient(BASELINE, `${baseline.url}/placement`, baselineToken));
    details.baseline = baselineMain;
  }
  const missing = process.argv.includes("--no-reference") ? "--no-reference" : referenceMissing();
  if (missing === undefined) {
    reference = await startReference(join(dir, "reference"));
    services.push(new PlacementClient("real Placement 8.0.0", reference.url, "admin", false));
  } else {
    log(`real Placement not measured: ${missing}`);
    details.referenceMissing = missing;
  }

  const setups = new Map<string, Setup>();
  for (const client of services) {
    const setupStarted = performance.now();
    setups.set(client.label, await createData(client, PROVIDERS, CONSUMERS));
    log(
      `${client.label}: ${PROVIDERS} providers and ${CONSUMERS} consumers created in ${Math.round(since(setupStarted) / 1000)} s`,
    );
  }
  // The floor answers berthd's own bytes for the two GETs; it keeps no data, so it needs no set-up.
  const berthdClient = services[0]!;
  floor = await startFloor(
    dir,
    await berthdClient.mustText("GET", `/allocation_candidates?${QUERY}&limit=1`, undefined, [200]),
    await berthdClient.mustText("GET", `/allocation_candidates?${QUERY}`, undefined, [200]),
  );
  const measured = [...services, new PlacementClient(FLOOR, floor.url, "none")];
  const timings = new Map<string, Timings[]>(measured.map((c) => [c.label, []]));
  // berthd's CPU time per request besides the wall time (/proc; the real Placement runs in uWSGI workers).
  const cpuOf = new Map<string, () => number>([["berthd", () => server!.cpuPreciseMs()]]);
  if (baseline !== undefined) cpuOf.set(BASELINE, () => baseline!.cpuPreciseMs());
  // One unmeasured round per service first: the first calls compile the paths (V8's JIT in berthd,
  // Python's lazy imports and caches in the real Placement), which a running service has long done;
  // with 60 samples a p99 is the slowest call, so it should not be a first one.
  for (const client of measured) await measure(client, CALLS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const client of measured)
      timings.get(client.label)!.push(await measure(client, CALLS, cpuOf.get(client.label)));
  }
  /** Every call's server CPU time of one request, over all rounds. */
  const cpuCalls = (label: string, pick: (cpu: NonNullable<Timings["cpu"]>) => number[]) =>
    timings.get(label)!.flatMap((t) => (t.cpu === undefined ? [] : pick(t.cpu)));
  const samples = (label: string, pick: (t: Timings) => number[]) => timings.get(label)!.flatMap(pick);
  const latencies = (label: string) => ({
    limitOne: distribution(samples(label, (t) => t.limitOne)),
    all: distribution(samples(label, (t) => t.all)),
    claim: distribution(samples(label, (t) => t.claim)),
  });
  const berthd = latencies("berthd");
  const size = `${PROVIDERS} providers, ${CONSUMERS} consumers`;
  bars.push(
    atMost(
      "placement-api.candidates.limit1.p50",
      `Placement GET /allocation_candidates limit=1 p50 over HTTP (${size})`,
      berthd.limitOne.p50,
      1,
      "ms",
    ),
    figure("placement-api.candidates.limit1.p99", "  same, p99", berthd.limitOne.p99, "ms"),
    atMost(
      "placement-api.candidates.all.p50",
      `Placement GET /allocation_candidates without limit p50 (${PROVIDERS} candidates)`,
      berthd.all.p50,
      15,
      "ms",
    ),
    figure("placement-api.candidates.all.p99", "  same, p99", berthd.all.p99, "ms"),
    atMost(
      "placement-api.claim.p50",
      "Placement PUT /allocations/{consumer} (claim) p50",
      berthd.claim.p50,
      2,
      "ms",
    ),
    figure("placement-api.claim.p99", "  same, p99", berthd.claim.p99, "ms"),
  );
  for (const label of cpuOf.keys()) {
    const who = label === "berthd" ? "berthd" : "baseline berthd";
    const key = label === "berthd" ? "placement-api.cpu" : "placement-api.baseline.cpu";
    // The in-bench baseline's own rows judge no build of this workspace.
    const better: Better = label === "berthd" ? "lower" : null;
    const requests = [
      ["candidates.limit1", "candidates limit=1", (c: NonNullable<Timings["cpu"]>) => c.limitOne],
      ["candidates.all", "candidates without limit", (c: NonNullable<Timings["cpu"]>) => c.all],
      ["claim", "claim", (c: NonNullable<Timings["cpu"]>) => c.claim],
    ] as const;
    for (const [id, what, pick] of requests) {
      // p50 beside the mean: one call that met a garbage collection or a periodic task moves the mean alone.
      const cpu = distribution(cpuCalls(label, pick));
      bars.push(
        figure(`${key}.${id}`, `${who}: CPU time per ${what} (mean)`, round(cpu.mean, 2), "ms", better),
        figure(`${key}.${id}.p50`, `${who}: CPU time per ${what} (p50)`, round(cpu.p50, 2), "ms", better),
      );
    }
  }
  // Provider creation stays linear: the last tenth costs what the first did.
  const creation = setups.get("berthd")!.providerMs;
  const tenth = Math.max(1, Math.floor(creation.length / 10));
  const firstTenth = round(median(creation.slice(0, tenth)), 3);
  const lastTenth = round(median(creation.slice(-tenth)), 3);
  bars.push(
    figure(
      "placement-api.create.first-tenth.p50",
      "Placement provider creation (POST + PUT inventories) p50, first tenth",
      firstTenth,
      "ms",
    ),
    figure(
      "placement-api.create.last-tenth.p50",
      "Placement provider creation p50, last tenth",
      lastTenth,
      "ms",
    ),
  );
  if (baseline !== undefined) {
    const before = latencies(BASELINE);
    bars.push(
      figure(
        "placement-api.baseline.candidates.limit1.p50",
        "baseline berthd: candidates limit=1 p50 (same run)",
        before.limitOne.p50,
        "ms",
        null,
      ),
      figure(
        "placement-api.baseline.candidates.all.p50",
        "baseline berthd: candidates without limit p50",
        before.all.p50,
        "ms",
        null,
      ),
      figure("placement-api.baseline.claim.p50", "baseline berthd: claim p50", before.claim.p50, "ms", null),
    );
  }
  const rows = [
    ["candidates.limit1", "candidates limit=1", "limitOne"],
    ["candidates.all", "candidates without limit", "all"],
    ["claim", "claim", "claim"],
  ] as const;
  const bare = latencies(FLOOR);
  for (const [id, what, key] of rows)
    bars.push(
      figure(
        `placement-api.floor.${id}.p50`,
        `HTTP floor (node:http answering berthd's bytes, nothing else): ${what} p50`,
        bare[key].p50,
        "ms",
        null,
      ),
      figure(`placement-api.floor.${id}.p99`, "  same, p99", bare[key].p99, "ms", null),
    );
  if (reference !== undefined) {
    const label = "real Placement 8.0.0";
    const real = latencies(label);
    for (const [id, what, key] of rows) {
      bars.push(
        figure(
          `placement-api.reference.${id}.p50`,
          `real Placement 8.0.0: ${what} p50 (same run)`,
          real[key].p50,
          "ms",
          null,
        ),
        figure(`placement-api.reference.${id}.p99`, "  same, p99", real[key].p99, "ms", null),
      );
    }
    for (const [id, what, key] of rows) {
      bars.push(
        figure(
          `placement-api.ratio.${id}`,
          `real Placement / berthd: ${what} (p50)`,
          round(real[key].p50 / berthd[key].p50, 1),
          "x",
          "higher",
        ),
        figure(
          `placement-api.ratio.${id}.p99`,
          `real Placement / berthd: ${what} (p99)`,
          round(real[key].p99 / berthd[key].p99, 1),
          "x",
          "higher",
        ),
      );
    }
    // The most any server could be faster than the real Placement on this machine in this run.
    for (const [id, what, key] of rows)
      bars.push(
        figure(
          `placement-api.floor-ratio.${id}`,
          `real Placement / HTTP floor: ${what} (p50), the most any server reaches here`,
          round(real[key].p50 / bare[key].p50, 1),
          "x",
          null,
        ),
        figure(
          `placement-api.floor-ratio.${id}.p99`,
          `real Placement / HTTP floor: ${what} (p99)`,
          round(real[key].p99 / bare[key].p99, 1),
          "x",
          null,
        ),
      );
  }
  for (const [label, rounds] of timings) {
    const setup = setups.get(label);
    details[label] = {
      candidatesLimitOneMs: distribution(rounds.flatMap((t) => t.limitOne)),
      candidatesAllMs: distribution(rounds.flatMap((t) => t.all)),
      claimMs: distribution(rounds.flatMap((t) => t.claim)),
      ...(cpuOf.has(label)
        ? {
            cpuLimitOneMs: distribution(cpuCalls(label, (c) => c.limitOne)),
            cpuAllMs: distribution(cpuCalls(label, (c) => c.all)),
            cpuClaimMs: distribution(cpuCalls(label, (c) => c.claim)),
          }
        : {}),
      candidates: rounds[0]?.candidates,
      ...(setup === undefined
        ? {}
        : {
            providerCreationMs: distribution(setup.providerMs),
            providerCreationTotalS: round(setup.providerMs.reduce((a, b) => a + b, 0) / 1000, 1),
            consumersTotalS: round(setup.consumersMs / 1000, 1),
          }),
    };
    log(`${label}: ${JSON.stringify(details[label])}`);
  }
  for (const client of measured) client.close();
} finally {
  floor?.stop();
  await server?.stop();
  await baseline?.stop();
  reference?.stop();
  cleanup();
}
writeResult("placement-api.json", { benchmark: "placement-api", durationMs: since(started), bars, details });
for (const bar of bars)
  log(
    `${bar.bar}: ${bar.measured} ${bar.unit}${bar.target === "" ? "" : ` (target ${bar.target}: ${bar.met ? "met" : "NOT met"})`}`,
  );
