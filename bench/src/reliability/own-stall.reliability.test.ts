/**
 * #17 item 2: a berthd stalled by runaway scriptlets (each run holds the
 * event loop up to `timeout_ms`, at most 10 s) must not count its own stall
 * against members: members heartbeating every second stay online, and none is
 * healed, however long the stall. Offline threshold and healing threshold
 * are LXD's minimum, 10 s; the tick runs every second. berthd runs with
 * `--scriptlet-workers 0` here so the scriptlets really hold its event loop
 * (with workers, the default, there is no stall to survive: see
 * scriptlet-workers.reliability.test.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { memberState } from "../cluster/member-spec.js";
import { RUNAWAY_SCRIPTLET } from "../cluster/scriptlets.js";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";

const MEMBERS = ["node1", "node2", "node3", "node4"];
/** Concurrent runaway creates: each stalls berthd for the 10 s per-run deadline, one after the other. */
const STALLING_CREATES = sized(3, 1);

const cluster = await smallCluster("own-stall", MEMBERS.length, {
  VCPU: { total: 64 },
  MEMORY_MB: { total: 262144 },
});
afterAll(() => cluster.cleanup());

describe("offline detection during the server's own stall", () => {
  it("keeps heartbeating members online and unhealed while runaway scriptlets stall berthd", async () => {
    const server = await Berthd.start({
      db: cluster.db,
      token: cluster.token,
      env: { BERTH_TICK: "1", BERTH_SCRIPTLET_WORKERS: "0" },
    });
    let beating = true;
    let heartbeatsSent = 0;
    let heartbeatsLost = 0;
    try {
      const heartbeats = (async () => {
        while (beating) {
          for (const [i, name] of MEMBERS.entries()) {
            heartbeatsSent++;
            // A kept-alive connection the stalled server timed out resets: a member just beats again next second.
            await server
              .request("PUT", `/1.0/cluster/members/${name}/state`, memberState(i))
              .catch(() => heartbeatsLost++);
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      })();
      const config = (values: Record<string, string>) => server.request("PATCH", "/1.0", { config: values });
      // Lower the thresholds only once every member has beaten under this berthd (its start may take seconds).
      while (heartbeatsSent < MEMBERS.length * 2) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(
        (await config({ "cluster.offline_threshold": "10", "cluster.healing_threshold": "10" })).status,
      ).toBe(200);
      const placed = new Map<string, string>();
      for (let i = 0; i < MEMBERS.length; i++) {
        const created = await server.request("POST", "/1.0/instances", { name: `keep${i}` });
        expect(created.status).toBe(201);
      }
      for (let i = 0; i < MEMBERS.length; i++) {
        const shown = await server.request("GET", `/1.0/instances/keep${i}`);
        placed.set(`keep${i}`, String((shown.json.metadata as { location: string }).location));
      }
      expect(
        (
          await config({
            "instances.placement.scriptlet.timeout_ms": "10000",
            // The deadline, not the step budget, must end each run.
            "instances.placement.scriptlet.max_steps": "1000000000000",
            "instances.placement.scriptlet": RUNAWAY_SCRIPTLET,
          })
        ).status,
      ).toBe(200);
      const stallStarted = performance.now();
      const outputBefore = server.output.length;
      const answers = await Promise.all(
        Array.from({ length: STALLING_CREATES }, (_, i) =>
          server.request("POST", "/1.0/instances", { name: `stall${i}` }),
        ),
      );
      const stallMs = Math.round(performance.now() - stallStarted);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
      // A few ticks after the stall, with the heartbeats that waited in their sockets read.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      beating = false;
      await heartbeats;
      await config({ "instances.placement.scriptlet": "" });
      const during = server.output.slice(outputBefore);
      const offlineEvents = (during.match(/"msg":"member offline"/g) ?? []).length;
      const healed = (during.match(/"msg":"healed offline member"/g) ?? []).length;
      const members = await server.request("GET", "/1.0/cluster/members?recursion=1");
      const statuses = (members.json.metadata as { server_name: string; status: string }[]).map(
        (m) => `${m.server_name}=${m.status}`,
      );
      const moved: string[] = [];
      for (const [name, location] of placed) {
        const shown = await server.request("GET", `/1.0/instances/${name}`);
        const now = String((shown.json.metadata as { location: string }).location);
        if (now !== location) moved.push(`${name}: ${location} -> ${now}`);
      }
      recordFigures("offline detection during the server's own stall", {
        "runaway creates (10 s each)": STALLING_CREATES,
        "stall ms (all creates answered)": stallMs,
        "heartbeats sent / lost to resets": `${heartbeatsSent} / ${heartbeatsLost}`,
        "member offline events": offlineEvents,
        "members healed": healed,
        "instances moved": moved.length,
        "member statuses after": statuses.join(" "),
      });
      expect(stallMs).toBeGreaterThan(STALLING_CREATES * 10_000 - 1_000);
      expect(offlineEvents).toBe(0);
      expect(healed).toBe(0);
      expect(moved).toEqual([]);
      expect(statuses).toEqual(MEMBERS.map((m) => `${m}=Online`));
    } finally {
      beating = false;
      await server.stop();
    }
  });
});
