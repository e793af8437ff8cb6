/**
 * Random clusters (fast-check over generated shapes): every multi-allocate
 * answer keeps Ganeti's rules, and, where Debian's hail is installed, on
 * the same inputs Berth places at least as many instances, and its spread
 * of used memory (max minus min across usable nodes) is no worse than
 * hail's by more than SPREAD_MARGIN_MIB.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iallocate } from "./iallocate.js";
import { generateCluster } from "./testing/clusters.js";
import { memorySpread, newViolations } from "./testing/rules.js";
import { hailInstalled, runBerth, runHail, withInputFile } from "./testing/run.js";

/** One node's worth of the largest generated instance: placements are whole instances. */
const SPREAD_MARGIN_MIB = 4096;

type Placed = [string, string[]][];

function specsOf(input: ReturnType<typeof generateCluster>) {
  return new Map(
    input.request.instances.map((instance) => [instance.name, instance as Record<string, unknown>]),
  );
}

const shapes = fc.record({
  nodes: fc.integer({ min: 1, max: 24 }),
  groups: fc.integer({ min: 1, max: 3 }),
  existing: fc.integer({ min: 0, max: 30 }),
  requested: fc.integer({ min: 1, max: 40 }),
  drbdShare: fc.double({ min: 0, max: 1, noNaN: true }),
  unusableEvery: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined }),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe("random clusters", () => {
  it("every placement keeps Ganeti's rules, and every instance is answered once, in request order", async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const input = generateCluster(shape);
        const answer = await iallocate(JSON.stringify(input));
        expect(answer.success).toBe(true);
        const [allocated, failed] = answer.result as [Placed, string[]];
        const names = input.request.instances.map((instance) => instance.name);
        expect([...allocated.map(([name]) => name), ...failed].sort()).toEqual([...names].sort());
        expect(allocated.map(([name]) => names.indexOf(name))).toEqual(
          allocated.map(([name]) => names.indexOf(name)).sort((a, b) => a - b),
        );
        expect(newViolations(input, allocated, specsOf(input) as never)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!hailInstalled)(
    "places at least as many as hail, keeps its rules, and spreads memory as evenly",
    () => {
      const cases = [
        { nodes: 6, groups: 1, existing: 4, requested: 6, drbdShare: 0.5, seed: 11 },
        { nodes: 8, groups: 2, existing: 6, requested: 8, drbdShare: 0, seed: 12 },
        { nodes: 6, groups: 1, existing: 0, requested: 30, drbdShare: 0.3, seed: 13, unusableEvery: 5 },
        { nodes: 10, groups: 3, existing: 8, requested: 10, drbdShare: 1, seed: 14 },
      ];
      for (const shape of cases) {
        const input = generateCluster(shape);
        const [berth, hail] = withInputFile(input, (path) => [runBerth(path), runHail(path)]);
        const specs = specsOf(input) as never;
        const berthPlaced = berth.success ? (berth.result as [Placed, string[]])[0] : [];
        const hailPlaced = hail.success ? (hail.result as [Placed, string[]])[0] : [];
        expect([shape.seed, berthPlaced.length >= hailPlaced.length]).toEqual([shape.seed, true]);
        expect(newViolations(input, berthPlaced, specs)).toEqual([]);
        expect(newViolations(input, hailPlaced, specs)).toEqual([]);
        if (berthPlaced.length === hailPlaced.length && hailPlaced.length > 0) {
          const ours = memorySpread(input, berthPlaced, specs);
          const theirs = memorySpread(input, hailPlaced, specs);
          expect([shape.seed, ours]).toEqual([shape.seed, expect.any(Number)]);
          expect(ours).toBeLessThanOrEqual(theirs + SPREAD_MARGIN_MIB);
        }
      }
    },
  );
});
