/**
 * Capacity planning over HTTP against the real berthd (issue #32's speed
 * rows): `POST /1.0/cluster/capacity` with a sized create body, one answer
 * at a time, on
 *  - 1,000 members / 100,000 instances (target p50 <= 50 ms), and
 *  - 10,000 members / 1,000,000 instances (target p50 <= 500 ms);
 * and, as figures, the simulated path on the 1,000-member cluster: a strict
 * spread placement group (every unit decided by the stack, one after another).
 *   node dist/benches/capacity.js [--quick]
 */
import { join } from "node:path";
import { prepareClusterFile } from "../cluster/prepare-apart.js";
import { type ClusterShape, describeShape } from "../cluster/shape.js";
import { type Distribution, distribution } from "../measure/stats.js";
import { tempDir } from "../measure/temp.js";
import { log, since, timeEach } from "../measure/timing.js";
import { atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const SHAPES: { shape: ClusterShape; limitMs: number }[] = [
  { shape: { members: 1000, instances: quick ? 10_000 : 100_000 }, limitMs: 50 },
  { shape: { members: 10_000, instances: quick ? 10_000 : 1_000_000 }, limitMs: 500 },
];
const SAMPLES = quick ? 20 : 100;
const BODY = { config: { "limits.cpu": "1", "limits.memory": "1GiB" } };

/** p50/p99 of `samples` capacity answers for `body`, after a few warm-up ones. */
async function timeAnswers(
  server: Berthd,
  body: unknown,
  samples: number,
): Promise<{ latency: Distribution; instances: number }> {
  let instances = 0;
  const ask = async () => {
    const { status, json } = await server.request("POST", "/1.0/cluster/capacity", body);
    if (status !== 200) throw new Error(`capacity answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
    instances = (json.metadata as { instances: number }).instances;
  };
  await timeEach(5, ask);
  return { latency: distribution(await timeEach(samples, ask)), instances };
}

const started = performance.now();
const bars: BarResult[] = [];
const details: Record<string, unknown> = {};
for (const [index, { shape, limitMs }] of SHAPES.entries()) {
  const { dir, cleanup } = tempDir(`capacity-bench-${index}`);
  try {
    const db = join(dir, "berth.db");
    const token = await prepareClusterFile(db, shape);
    // A 10,000-member file takes a while to load on a shared machine: wait for it rather than fail.
    const server = await Berthd.start({ db, token, startTimeoutMs: 300_000 });
    try {
      const where = describeShape(shape);
      const plain = await timeAnswers(server, BODY, SAMPLES);
      log(
        `capacity over HTTP, ${where}: ${plain.instances} more fit, p50 ${plain.latency.p50} ms, p99 ${plain.latency.p99} ms`,
      );
      details[`${shape.members}`] = { shape, plain };
      bars.push(
        atMost(
          `capacity.http.${shape.members}`,
          `capacity answer over HTTP (POST /1.0/cluster/capacity), ${where}, p50`,
          plain.latency.p50,
          limitMs,
          "ms",
        ),
        figure(`capacity.http.${shape.members}.p99`, "  same, p99", plain.latency.p99, "ms"),
      );
      if (index === 0) {
        // The simulated path: a strict spread group, each unit decided by the stack in turn.
        const group = await server.request("POST", "/1.0/placement-groups", {
          name: "spread",
          policy: "spread",
          rigor: "strict",
        });
        if (group.status !== 201) throw new Error(`placement group answered ${group.status}`);
        const spread = await timeAnswers(
          server,
          { config: { ...BODY.config, "placement.group": "spread" } },
          quick ? 5 : 20,
        );
        log(`  strict spread group (simulated): ${spread.instances} more fit, p50 ${spread.latency.p50} ms`);
        details.strictSpread = spread;
        bars.push(
          figure(
            "capacity.http.strict-spread",
            `  same, strict spread placement group (${spread.instances} creates simulated through the stack), p50`,
            spread.latency.p50,
            "ms",
          ),
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    cleanup();
  }
}

writeResult("capacity.json", {
  benchmark: "capacity planning over HTTP",
  durationMs: since(started),
  bars,
  details,
});
for (const bar of bars)
  log(`${bar.bar}: ${bar.measured} ${bar.unit} ${bar.met === null ? "" : bar.met ? "(met)" : "(NOT met)"}`);
