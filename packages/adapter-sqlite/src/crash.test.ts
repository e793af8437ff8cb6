import { afterAll, describe, expect, it } from "vitest";
import { finished, lineSeen, spawnScript } from "../test-support/child-process.fixture.js";
import { inventoryOf, memberOf } from "../test-support/records.fixture.js";
import { makeTempDir } from "../test-support/temp-dir.fixture.js";
import { openStore } from "./open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const MEMBERS = Array.from({ length: 20 }, (_, i) => `m${i}`);
const BATCH = 5000;
/** Each batch goes into its own project, so counting it is one aggregate read. */
const BATCHES = ["calibration", "batch-0", "batch-1", "batch-2", "batch-3"];

async function prepare(file: string): Promise<void> {
  const store = await openStore(file);
  for (const name of BATCHES) await store.projects.create({ name, description: "", config: {} });
  for (const name of MEMBERS) {
    await store.createMember(
      memberOf(name, { VCPU: inventoryOf(10_000), MEMORY_MB: inventoryOf(10_000_000) }),
    );
  }
  await store.close();
}

/** Starts a bulk claim in a child; kills it `killAfterMs` after it starts claiming (or never). */
async function runBulk(file: string, batchName: string, killAfterMs: number | undefined) {
  const child = spawnScript("./bulk-claimer.fixture.ts", [file, batchName, String(BATCH), MEMBERS.join(",")]);
  const done = finished(child);
  await lineSeen(child, "ready");
  const claiming = lineSeen(child, "claiming");
  child.stdin?.end("go\n");
  await claiming;
  if (killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return done;
}

async function batchSize(file: string, batchName: string): Promise<number> {
  const store = await openStore(file);
  try {
    const report = await store.check();
    expect(report.violations).toEqual([]);
    const usage = (await store.snapshot()).projectUsage.find((row) => row.project === batchName);
    return usage?.instances ?? 0;
  } finally {
    await store.close();
  }
}

describe("SIGKILL in the middle of a 5,000-instance bulk claim", () => {
  it("leaves the batch entirely present or entirely absent, and check() clean", async () => {
    const file = dir.file("crash.db");
    await prepare(file);

    // Calibrate: how long does this machine take for the batch?
    const calibration = await runBulk(file, "calibration", undefined);
    expect(calibration.code).toBe(0);
    const took = Number(calibration.lines.find((l) => l.startsWith("claimed "))?.split(" ")[1]);
    expect(took).toBeGreaterThan(0);
    expect(await batchSize(file, "calibration")).toBe(BATCH);

    // Kill at different points of the claim; each must be all-or-nothing, and
    // at least one kill must land before the commit (or the test proved nothing).
    let killedMidway = 0;
    // Two kills at different points, then smaller fractions only if the
    // machine sped up since calibration and both landed after the commit.
    for (const [attempt, fraction] of [0.25, 0.6, 0.1, 0.03].entries()) {
      if (attempt >= 2 && killedMidway > 0) break;
      const name = `batch-${attempt}`;
      const result = await runBulk(file, name, Math.max(1, Math.floor(took * fraction)));
      const present = await batchSize(file, name);
      expect([0, BATCH]).toContain(present);
      if (result.code === 0) expect(present).toBe(BATCH);
      // An absent batch means the kill landed inside the claim. (A kill right
      // after the commit but before "claimed" is printed leaves it present.)
      if (present === 0) {
        expect(result.signal).toBe("SIGKILL");
        killedMidway += 1;
      }
    }
    expect(killedMidway).toBeGreaterThan(0);
    // The calibration batch committed earlier is untouched by the crashes.
    expect(await batchSize(file, "calibration")).toBe(BATCH);
    // Child processes start slowly on a loaded machine; the work itself is a few seconds.
  }, 240_000);
});
