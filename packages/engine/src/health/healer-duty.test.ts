import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { Engine } from "../services/engine.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

const TICK_MS = 5_000;

/** Ticks every `TICK_MS` for `totalMs` (the engine is awake throughout). */
async function tickFor(engine: Engine, clock: ManualClock, totalMs: number) {
  let report = await engine.tick();
  for (let elapsed = 0; elapsed < totalMs; elapsed += TICK_MS) {
    clock.advance(TICK_MS);
    report = await engine.tick();
  }
  return report;
}

describe("offline detection never counts the engine's own stall against members", () => {
  it("marks a member offline when it has been silent past the threshold while the engine was awake", async () => {
    const { engine, clock } = await testCluster({ tickPeriodMs: TICK_MS });
    await engine.setConfig({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "0" });
    await addMember(engine, "n1");
    const report = await tickFor(engine, clock, 25_000);
    expect(report).toMatchObject({ role: "healer", stalled: false, offline: ["n1"] });
  });

  it("after a stall (a tick far later than due), counts silence from the end of the stall", async () => {
    const { engine, clock } = await testCluster({ tickPeriodMs: TICK_MS });
    await engine.setConfig({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "30" });
    await addMember(engine, "n1");
    await engine.tick();
    // The engine was stopped (SIGSTOP, a blocked event loop) for 60 s: its ticks stopped too.
    clock.advance(60_000);
    const resumed = await engine.tick();
    expect(resumed).toMatchObject({ stalled: true, offline: [], healed: [] });
    // Members that keep beating stay online; one that does not goes offline a threshold later.
    await engine.heartbeat("n1");
    const awake = await tickFor(engine, clock, 15_000);
    expect(awake).toMatchObject({ stalled: false, offline: [] });
    const later = await tickFor(engine, clock, 10_000);
    expect(later.offline).toEqual(["n1"]);
  });

  it("without a tick period (a library caller ticking at will), silence counts from the last heartbeat", async () => {
    const { engine, clock } = await testCluster();
    await engine.setConfig({ "cluster.offline_threshold": "20" });
    await addMember(engine, "n1");
    clock.advance(60_000);
    expect((await engine.tick()).offline).toEqual(["n1"]);
  });
});

describe("one healer at a time", () => {
  it("only the engine holding the healer lease detects and heals; the lease moves when its holder stops", async () => {
    const store = new MemoryStore();
    const clock = new ManualClock();
    const first = await Engine.open({ store, clock, tickPeriodMs: TICK_MS });
    await first.setConfig({ "cluster.offline_threshold": "20", "cluster.healing_threshold": "0" });
    await addMember(first, "n1");
    const second = await Engine.open({ store, clock, tickPeriodMs: TICK_MS });
    // Both tick on schedule (a started engine counts silence from its first tick).
    let [a, b] = [await first.tick(), await second.tick()];
    for (let elapsed = 0; elapsed < 25_000; elapsed += TICK_MS) {
      clock.advance(TICK_MS);
      [a, b] = [await first.tick(), await second.tick()];
    }
    expect([a.role, b.role]).toEqual(["healer", "standby"]);
    expect(a.offline).toEqual(["n1"]);
    expect(b.offline).toEqual([]);
    // The healer stands down (shutting down): the other takes over at its next tick.
    await first.standDown();
    expect((await second.tick()).role).toBe("healer");
    expect((await first.tick()).role).toBe("standby");
  });
});
