/**
 * Runaway and memory-bomb scriptlets on a real berthd: each placement must
 * fail with a 4xx within the configured limits, while a prober keeps sending
 * other requests and measures how long they wait.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  LIST_BOMB_SCRIPTLET,
  LIST_OF_LISTS_BOMB_SCRIPTLET,
  MEMORY_BOMB_SCRIPTLET,
  REPLACE_BOMB_SCRIPTLET,
  RUNAWAY_SCRIPTLET,
} from "../cluster/scriptlets.js";
import { distribution } from "../measure/stats.js";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";
import { startProber } from "./prober.js";

const TIMEOUT_MS = 5_000; // berthd's default instances.placement.scriptlet.timeout_ms
const PLACEMENTS_PER_SCRIPTLET = sized(3, 1);
const PROBE_EVERY_MS = 25;

const cluster = await smallCluster("scriptlets", 20, { VCPU: { total: 64 }, MEMORY_MB: { total: 262144 } });
afterAll(() => cluster.cleanup());

describe("runaway and memory-bomb scriptlets", () => {
  it("fail within their limits with a 4xx while the server keeps answering other requests", async () => {
    const server = await Berthd.start({ db: cluster.db, token: cluster.token, logLevel: "warn" });
    try {
      const baselineProber = startProber(server, "/1.0/cluster/members/node1", PROBE_EVERY_MS);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const baseline = distribution((await baselineProber.stop()).latencies);
      const figures: Record<string, number | string | boolean> = {
        "probe p50 ms, no scriptlet": baseline.p50,
        "probe p99 ms, no scriptlet": baseline.p99,
      };
      // Garbage is refused when it is set, with the position: Python's ** (which does not
      // exist in Starlark) and text that is not Starlark at all.
      for (const garbage of [
        "def instance_placement(request, candidate_members):\n    for i in range(10**9):\n        pass\n",
        "this is not starlark {",
        "def instance_placement(:\n",
      ]) {
        const refused = await server.request("PATCH", "/1.0", {
          config: { "instances.placement.scriptlet": garbage },
        });
        expect(refused.status).toBe(400);
        figures[`garbage refused on set: ${JSON.stringify(garbage.slice(0, 30))}`] = refused.status;
      }
      let counter = 0;
      let bombsRefused = 0;
      for (const [label, source] of [
        ["runaway", RUNAWAY_SCRIPTLET],
        ["string/list bomb", MEMORY_BOMB_SCRIPTLET],
        ["list growth bomb", LIST_BOMB_SCRIPTLET],
        ["list-of-lists bomb (#17)", LIST_OF_LISTS_BOMB_SCRIPTLET],
        ["replace-string bomb (#17)", REPLACE_BOMB_SCRIPTLET],
      ] as const) {
        const set = await server.request("PATCH", "/1.0", {
          config: { "instances.placement.scriptlet": source },
        });
        expect(set.status).toBe(200);
        const prober = startProber(server, "/1.0/cluster/members/node1", PROBE_EVERY_MS);
        const placementMs: number[] = [];
        const messages = new Set<string>();
        for (let i = 0; i < PLACEMENTS_PER_SCRIPTLET; i++) {
          const started = performance.now();
          const { status, json } = await server.request("POST", "/1.0/instances", {
            name: `bad${++counter}`,
          });
          placementMs.push(performance.now() - started);
          expect(status).toBe(400);
          bombsRefused++;
          messages.add(String(json.error).slice(0, 120));
        }
        const probes = await prober.stop();
        const probeLatency = distribution(probes.latencies);
        figures[`${label}: placements (all 400)`] = PLACEMENTS_PER_SCRIPTLET;
        figures[`${label}: slowest placement ms`] = Math.round(Math.max(...placementMs));
        figures[`${label}: error`] = [...messages].join(" | ");
        figures[`${label}: probes answered / sent`] =
          `${probes.latencies.length - probes.failures.length} / ${probes.latencies.length}`;
        figures[`${label}: probe p50 / p99 / max ms`] =
          `${probeLatency.p50} / ${probeLatency.p99} / ${probeLatency.max}`;
        expect(probes.failures).toEqual([]);
        // Fails within the limits: the deadline plus scheduling slack on a loaded machine.
        expect(Math.max(...placementMs)).toBeLessThan(TIMEOUT_MS + 5_000);
      }
      figures["bombs tried / refused with 400, server alive"] = `${counter} / ${bombsRefused}`;
      const memory = server.memory();
      figures["berthd peak RSS MiB (VmHWM)"] = memory.peakRssMiB;
      const clear = await server.request("PATCH", "/1.0", {
        config: { "instances.placement.scriptlet": "" },
      });
      expect(clear.status).toBe(200);
      const after = await server.request("POST", "/1.0/instances", { name: "good-after-bombs" });
      figures["placement after the bombs"] = after.status;
      recordFigures("runaway and memory-bomb scriptlets", figures);
      expect(after.status).toBe(201);
      expect(memory.peakRssMiB).toBeLessThan(1024);
    } finally {
      await server.stop();
    }
  });
});
