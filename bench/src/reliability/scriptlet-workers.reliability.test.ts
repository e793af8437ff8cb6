/**
 * #17 item 2: scriptlets run off the event loop. On a real berthd:
 * runaway scriptlets keep running (four clients creating at once) while a
 * prober's `GET /1.0` keeps being answered promptly; a scriptlet that
 * outgrows its worker's heap (berthd started with a small
 * `--scriptlet-heap-mb`, standing in for a bug in the allocation budget)
 * kills only that worker: its placement fails with a 400 naming the cause,
 * the server lives, and the next placement works.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LIST_OF_LISTS_BOMB_SCRIPTLET, RUNAWAY_SCRIPTLET } from "../cluster/scriptlets.js";
import { distribution } from "../measure/stats.js";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";
import { startProber } from "./prober.js";

/** Per-run deadline of the runaway scriptlet; a probe that waited for a run would take about this long. */
const TIMEOUT_MS = 3_000;
const STORM_MS = sized(12_000, 4_000);
const STORM_CLIENTS = 4;
const KILL_ROUNDS = sized(3, 1);
const PROBE_EVERY_MS = 20;
/** Far below TIMEOUT_MS: no probe waited for a scriptlet run, even on a loaded machine. */
const PROMPT_MS = 1_000;
/** Worker heap for the kill rounds: the bomb passes it long before the 256 MiB allocation budget. */
const HEAP_MB = "64";

const cluster = await smallCluster("scriptlet-workers", 10, {
  VCPU: { total: 64 },
  MEMORY_MB: { total: 262144 },
});
afterAll(() => cluster.cleanup());

describe("scriptlets in worker threads", () => {
  it("keep GET /1.0 prompt during a runaway storm, and a worker killed by its heap limit leaves berthd alive", async () => {
    const server = await Berthd.start({
      db: cluster.db,
      token: cluster.token,
      logLevel: "warn",
      env: { BERTH_SCRIPTLET_HEAP_MB: HEAP_MB },
    });
    const figures: Record<string, number | string | boolean> = {};
    try {
      const set = (source: string) =>
        server.request("PATCH", "/1.0", {
          config: {
            "instances.placement.scriptlet": source,
            "instances.placement.scriptlet.timeout_ms": String(TIMEOUT_MS),
          },
        });

      // The storm: every create runs a scriptlet that only its deadline stops.
      expect((await set(RUNAWAY_SCRIPTLET)).status).toBe(200);
      const prober = startProber(server, "/1.0", PROBE_EVERY_MS);
      let running = true;
      const statuses: Record<number, number> = {};
      const clients = Array.from({ length: STORM_CLIENTS }, async (_, c) => {
        for (let i = 0; running; i++) {
          const { status } = await server.request("POST", "/1.0/instances", { name: `storm-${c}-${i}` });
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, STORM_MS));
      const probes = await prober.stop();
      running = false;
      await Promise.all(clients);
      const latency = distribution(probes.latencies);
      figures["storm: runaway creates answered (by status)"] = JSON.stringify(statuses);
      figures["storm: GET /1.0 probes answered / sent"] =
        `${probes.latencies.length - probes.failures.length} / ${probes.latencies.length}`;
      figures["storm: GET /1.0 p50 / p99 / max ms"] = `${latency.p50} / ${latency.p99} / ${latency.max}`;
      expect(probes.failures).toEqual([]);
      expect(Object.keys(statuses)).toEqual(["400"]);
      expect(latency.p99).toBeLessThan(PROMPT_MS);

      // The kill rounds: the bomb stays under every Starlark cap and the budget; the heap limit stops it.
      expect((await set(LIST_OF_LISTS_BOMB_SCRIPTLET)).status).toBe(200);
      const killProber = startProber(server, "/1.0", PROBE_EVERY_MS);
      const errors = new Set<string>();
      for (let round = 0; round < KILL_ROUNDS; round++) {
        const { status, json } = await server.request("POST", "/1.0/instances", { name: `bomb${round}` });
        expect(status).toBe(400);
        errors.add(String(json.error));
      }
      const killProbes = await killProber.stop();
      const killLatency = distribution(killProbes.latencies);
      figures["kill rounds: workers killed by their heap limit, each placement 400"] = KILL_ROUNDS;
      figures["kill rounds: error"] = [...errors].join(" | ");
      figures["kill rounds: GET /1.0 p50 / p99 / max ms"] =
        `${killLatency.p50} / ${killLatency.p99} / ${killLatency.max}`;
      expect([...errors]).toEqual([
        `Failed instance placement scriptlet: Failed to run: the scriptlet's worker thread stopped: it ran out of memory (heap limit ${HEAP_MB} MiB, from instances.placement.scriptlet.max_memory); it was replaced`,
      ]);
      expect(killProbes.failures).toEqual([]);

      // Alive: a normal placement goes through a fresh worker.
      const good = `def instance_placement(request, candidate_members):\n    set_target(candidate_members[-1].server_name)\n`;
      expect((await set(good)).status).toBe(200);
      const after = await server.request("POST", "/1.0/instances", { name: "after-kills" });
      figures["placement after the kill rounds"] = after.status;
      expect(after.status).toBe(201);
      figures["berthd peak RSS MiB (VmHWM)"] = server.memory().peakRssMiB;
      recordFigures("scriptlets in worker threads", figures);
    } finally {
      await server.stop();
    }
  });
});
