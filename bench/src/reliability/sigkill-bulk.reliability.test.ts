import { openStore } from "@berth/adapter-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";

const BULK = sized(5_000, 2_000);
/** Kill points as fractions of a calibrated full bulk request. */
const KILL_AT = sized([0.15, 0.35, 0.55, 0.75, 0.95, 1.2], [0.3, 0.7, 1.2]);
const CONFIG = { "limits.cpu": "1", "limits.memory": "64MiB" };

const cluster = await smallCluster("sigkill", 20, {
  VCPU: { total: 100_000, allocation_ratio: 1 },
  MEMORY_MB: { total: 64 * 1024 * 1024 },
});
afterAll(() => cluster.cleanup());

function bulkBody(prefix: string) {
  return { instances: Array.from({ length: BULK }, (_, i) => ({ name: `${prefix}-${i}`, config: CONFIG })) };
}

async function namesWithPrefix(server: Berthd, prefix: string): Promise<number> {
  const { status, json } = await server.request("GET", "/1.0/instances");
  if (status !== 200) throw new Error(`listing instances answered ${status}`);
  return (json.metadata as string[]).filter((url) => url.startsWith(`/1.0/instances/${prefix}-`)).length;
}

describe("SIGKILL of berthd in the middle of a bulk create", () => {
  it(`leaves each ${BULK}-instance batch entirely present or entirely absent, earlier data intact, check() clean`, async () => {
    let server = await Berthd.start({ db: cluster.db, token: cluster.token });
    // Earlier data that must survive every kill.
    for (let i = 0; i < 20; i++) {
      expect(
        (await server.request("POST", "/1.0/instances", { name: `early-${i}`, config: CONFIG })).status,
      ).toBe(201);
    }
    // Calibrate: how long a whole bulk request takes here, now.
    const calibrationStarted = performance.now();
    const calibration = await server.request("POST", "/1.0/instances/bulk", bulkBody("cal"));
    const fullMs = performance.now() - calibrationStarted;
    expect(calibration.status).toBeLessThan(300);

    const attempts: { killAfterMs: number; answered: boolean; present: number }[] = [];
    for (const [attempt, fraction] of KILL_AT.entries()) {
      const prefix = `k${attempt}`;
      const killAfterMs = Math.round(fullMs * fraction);
      const pending = server
        .request("POST", "/1.0/instances/bulk", bulkBody(prefix))
        .then((answer) => answer.status)
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await server.kill();
      const answeredStatus = await pending;
      server = await Berthd.start({ db: cluster.db, token: cluster.token });
      const present = await namesWithPrefix(server, prefix);
      attempts.push({ killAfterMs, answered: answeredStatus !== undefined, present });
      expect([0, BULK]).toContain(present);
      if (answeredStatus !== undefined && answeredStatus < 300) expect(present).toBe(BULK);
    }
    expect(await namesWithPrefix(server, "early")).toBe(20);
    expect(await namesWithPrefix(server, "cal")).toBe(BULK);
    await server.stop();

    const store = await openStore(cluster.db);
    const report = await store.check().finally(() => store.close());
    const killedBeforeAnswer = attempts.filter((a) => !a.answered).length;
    recordFigures("SIGKILL during bulk create", {
      "bulk size": BULK,
      "calibrated bulk request ms": Math.round(fullMs),
      kills: attempts.length,
      "kills before the answer": killedBeforeAnswer,
      "batches entirely present": attempts.filter((a) => a.present === BULK).length,
      "batches entirely absent": attempts.filter((a) => a.present === 0).length,
      "half-done batches": attempts.filter((a) => a.present !== 0 && a.present !== BULK).length,
      "check() violations": report.violations.length,
    });
    expect(report.violations).toEqual([]);
    // The test means something only if at least one kill hit a request in flight.
    expect(killedBeforeAnswer).toBeGreaterThan(0);
  });
});
