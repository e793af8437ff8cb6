/**
 * Issue #17 item 3: SIGKILL of a real berthd while it evacuates or restores
 * a member leaves the cluster in the state before or the state after, never
 * half-done (the member's state and every move land in one claim).
 */
import { openStore } from "@berth/adapter-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";

const INSTANCES = sized(1_500, 200);
/** Kill points as fractions of a calibrated evacuation (or restore) request. */
const KILL_AT = sized([0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0, 1.3], [0.2, 0.5, 0.8, 1.1]);
const MEMBER = "node1";
const CONFIG = { "limits.cpu": "1", "limits.memory": "64MiB" };

const cluster = await smallCluster("sigkill-evacuate", 8, {
  VCPU: { total: 100_000, allocation_ratio: 1 },
  MEMORY_MB: { total: 64 * 1024 * 1024 },
});
afterAll(() => cluster.cleanup());

type State = "evacuated" | "in service" | "half-done";

/** Where the member and its instances stand, as berthd answers after a restart. */
async function stateOf(server: Berthd): Promise<{ state: State; onMember: number; status: string }> {
  const member = await server.request("GET", `/1.0/cluster/members/${MEMBER}`);
  const status = (member.json.metadata as { status: string }).status;
  const listed = await server.request("GET", "/1.0/instances?recursion=1");
  const instances = listed.json.metadata as { location: string; config: Record<string, string> }[];
  const onMember = instances.filter((instance) => instance.location === MEMBER).length;
  const originated = instances.filter(
    (instance) => instance.config["volatile.evacuate.origin"] === MEMBER,
  ).length;
  if (status === "Evacuated" && onMember === 0 && originated === INSTANCES)
    return { state: "evacuated", onMember, status };
  if (status === "Online" && onMember === INSTANCES && originated === 0)
    return { state: "in service", onMember, status };
  return { state: "half-done", onMember, status };
}

function action(state: State): "evacuate" | "restore" {
  return state === "evacuated" ? "restore" : "evacuate";
}

describe("SIGKILL of berthd in the middle of an evacuation or a restore", () => {
  it(`leaves ${MEMBER} and its ${INSTANCES} instances before or after, never half-done, check() clean`, async () => {
    let server = await Berthd.start({ db: cluster.db, token: cluster.token });
    const seeded = await server.request("POST", `/1.0/instances/bulk?target=${MEMBER}`, {
      instances: Array.from({ length: INSTANCES }, (_, i) => ({ name: `e-${i}`, config: CONFIG })),
    });
    expect(seeded.status).toBeLessThan(300);
    expect((await stateOf(server)).state).toBe("in service");

    // Calibrate: one whole evacuation and one whole restore, here and now.
    const timed = async (what: "evacuate" | "restore") => {
      const started = performance.now();
      const answer = await server.request("POST", `/1.0/cluster/members/${MEMBER}/state`, { action: what });
      expect(answer.status).toBe(200);
      return performance.now() - started;
    };
    const fullMs = { evacuate: await timed("evacuate"), restore: 0 };
    fullMs.restore = await timed("restore");
    expect((await stateOf(server)).state).toBe("in service");

    const rounds: { action: string; killAfterMs: number; answered: boolean; before: State; after: State }[] =
      [];
    let current: State = "in service";
    for (const fraction of KILL_AT) {
      const what = action(current);
      const killAfterMs = Math.round(fullMs[what] * fraction);
      const pending = server
        .request("POST", `/1.0/cluster/members/${MEMBER}/state`, { action: what })
        .then((answer) => answer.status)
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await server.kill();
      const answered = await pending;
      server = await Berthd.start({ db: cluster.db, token: cluster.token });
      const after = (await stateOf(server)).state;
      rounds.push({ action: what, killAfterMs, answered: answered !== undefined, before: current, after });
      expect(after).not.toBe("half-done");
      if (answered !== undefined && answered < 300) expect(after).not.toBe(current);
      current = after;
    }
    await server.stop();

    const store = await openStore(cluster.db);
    const report = await store.check().finally(() => store.close());
    const killedBeforeAnswer = rounds.filter((round) => !round.answered).length;
    recordFigures("SIGKILL during evacuation and restore", {
      instances: INSTANCES,
      "calibrated evacuation ms": Math.round(fullMs.evacuate),
      "calibrated restore ms": Math.round(fullMs.restore),
      "kill rounds": rounds.length,
      "kills before the answer": killedBeforeAnswer,
      "rounds left before": rounds.filter((round) => round.after === round.before).length,
      "rounds left after": rounds.filter((round) => round.after !== round.before).length,
      "half-done": rounds.filter((round) => round.after === "half-done").length,
      "check() violations": report.violations.length,
    });
    expect(report.violations).toEqual([]);
    // The test means something only if at least one kill hit a request in flight.
    expect(killedBeforeAnswer).toBeGreaterThan(0);
  });
});
