import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

/** A small deterministic PRNG (mulberry32) so a failing sequence replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("default policy pick (scan hint)", () => {
  // The fast pick (leastLoadedCandidate with its floor/cursor hint) must always
  // choose what the full, sorted candidate list puts first (dry runs build it).
  for (const seed of [1, 2, 3]) {
    it(`matches the sorted candidate list over random creates, deletes and moves (seed ${seed})`, async () => {
      const next = random(seed);
      const { engine, clock } = await testCluster();
      for (let i = 0; i < 8; i++) await addMember(engine, `n${i}`, { memoryMb: 4096 + 1024 * (i % 3) });
      const live: string[] = [];
      let created = 0;
      for (let step = 0; step < 160; step++) {
        const roll = next();
        if (roll < 0.6 || live.length === 0) {
          const body = {
            name: `i${created++}`,
            config: { "limits.memory": `${1 + Math.floor(next() * 3)}GiB` },
          };
          const dry = await engine.dryRun(body);
          try {
            const outcome = await engine.createInstance(body);
            expect(dry.decision).toMatchObject({ outcome: "placed", member: outcome.instance.location });
            live.push(body.name);
          } catch (error) {
            if (!(error instanceof EngineError)) throw error;
            expect(dry.decision.outcome).toBe("rejected");
          }
        } else if (roll < 0.85) {
          const [name] = live.splice(Math.floor(next() * live.length), 1);
          await engine.deleteInstance("default", name!);
        } else if (roll < 0.95) {
          const name = live[Math.floor(next() * live.length)]!;
          const target = `n${Math.floor(next() * 8)}`;
          await engine.moveInstance("default", name, target).catch((error: unknown) => {
            if (!(error instanceof EngineError)) throw error;
          });
        } else {
          // Some members go quiet for a while, then come back.
          clock.advance(15_000);
          for (let i = 0; i < 8; i++) if (next() < 0.7) await engine.heartbeat(`n${i}`);
        }
      }
      expect(created).toBeGreaterThan(50);
    });
  }

  it("a bulk create spreads like one create at a time", async () => {
    const { engine } = await testCluster();
    for (let i = 0; i < 5; i++) await addMember(engine, `n${i}`);
    await engine.createInstance({ name: "first" }, { target: "n2" });
    const bulk = await engine.bulkCreate(
      Array.from({ length: 12 }, (_, i) => ({ name: `b${i}`, config: { "limits.memory": "1GiB" } })),
    );
    const perMember = new Map<string, number>();
    for (const instance of bulk.instances) {
      perMember.set(instance.location, (perMember.get(instance.location) ?? 0) + 1);
    }
    // 13 instances over 5 members: n2 already had one, so it gets one fewer.
    expect(Object.fromEntries([...perMember].sort())).toEqual({ n0: 3, n1: 3, n2: 2, n3: 2, n4: 2 });
    expect(bulk.instances.slice(0, 5).map((instance) => instance.location)).toEqual([
      "n0",
      "n1",
      "n3",
      "n4",
      "n0",
    ]);
  });
});
