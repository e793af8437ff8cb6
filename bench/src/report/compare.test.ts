import { describe, expect, it } from "vitest";
import { compareBars, comparisonTable, measuredBy, regressions, worsening } from "./compare.js";
import { atLeast, atMost, type BarResult, figure } from "./results.js";

const latency = (measured: number) => atMost("lat", "latency p50", measured, 1, "ms");
const throughput = (measured: number) => atLeast("tput", "creates/s", measured, 1000, "placements/s");

describe("comparison with a baseline build", () => {
  it("gives the ratio this build / baseline", () => {
    const [row] = compareBars([latency(1.5)], [latency(1)]);
    expect(row).toMatchObject({ current: 1.5, baseline: 1, ratio: 1.5, better: "lower" });
  });

  it("marks a latency more than 10 % above the baseline's, and not one at or under 10 %", () => {
    expect(compareBars([latency(1.11)], [latency(1)])[0]!.verdict).toBe("worse");
    expect(compareBars([latency(1.1)], [latency(1)])[0]!.verdict).toBe("same");
    expect(compareBars([latency(0.95)], [latency(1)])[0]!.verdict).toBe("same");
    expect(compareBars([latency(0.5)], [latency(1)])[0]!.verdict).toBe("better");
  });

  it("marks a throughput more than 10 % below the baseline's: higher is better there", () => {
    expect(compareBars([throughput(890)], [throughput(1000)])[0]!.verdict).toBe("worse");
    expect(compareBars([throughput(900)], [throughput(1000)])[0]!.verdict).toBe("same");
    expect(compareBars([throughput(1500)], [throughput(1000)])[0]!.verdict).toBe("better");
    expect(worsening(890, 1000, "higher")).toBeCloseTo(0.11);
    expect(worsening(1.2, 1, "lower")).toBeCloseTo(0.2);
  });

  it("takes a figure's direction from its unit unless the bench says otherwise", () => {
    const rows = compareBars(
      [
        figure("rss", "RSS", 300, "MiB"),
        figure("rate", "rate", 50, "placements/s"),
        figure("count", "per claim", 1, "creates"),
        figure("hail", "hail CPU", 9000, "ms", null),
      ],
      [
        figure("rss", "RSS", 200, "MiB"),
        figure("rate", "rate", 100, "placements/s"),
        figure("count", "per claim", 5, "creates"),
        figure("hail", "hail CPU", 1000, "ms", null),
      ],
    );
    expect(rows.map((r) => [r.id, r.better, r.verdict])).toEqual([
      ["rss", "lower", "worse"],
      ["rate", "higher", "worse"],
      ["count", null, "not judged"],
      ["hail", null, "not judged"],
    ]);
  });

  it("reads results written before rows carried a direction by their unit", () => {
    const old = (measured: number): BarResult => ({
      id: "old",
      bar: "old row",
      target: "",
      measured,
      unit: "ms",
      met: null,
    });
    expect(compareBars([old(3)], [old(2)])[0]).toMatchObject({ better: "lower", verdict: "worse" });
  });

  it("says n/a in baseline for a row the baseline lacks, or for every row when its step failed", () => {
    const extra = figure("new", "new API", 2, "ms");
    expect(compareBars([latency(1), extra], [latency(1)]).map((r) => r.verdict)).toEqual([
      "same",
      "n/a in baseline",
    ]);
    const failed = compareBars([latency(1), extra], undefined);
    expect(failed.map((r) => [r.verdict, r.baseline, r.ratio])).toEqual([
      ["n/a in baseline", null, null],
      ["n/a in baseline", null, null],
    ]);
    expect(regressions(failed)).toEqual([]);
  });

  it("keeps rows only the baseline has, as n/a in this build", () => {
    const rows = compareBars([], [latency(1)]);
    expect(rows).toMatchObject([{ id: "lat", current: null, baseline: 1, verdict: "n/a in this build" }]);
  });

  it("does not divide by a baseline of 0", () => {
    const zero = (measured: number) => figure("non2xx", "non-201 answers", measured, "answers");
    expect(compareBars([zero(0)], [zero(0)])[0]).toMatchObject({ ratio: 1, verdict: "same" });
    expect(compareBars([zero(3)], [zero(0)])[0]).toMatchObject({ ratio: null, verdict: "baseline is 0" });
  });

  it("lists only the worse rows as regressions, and shows both figures, the ratio and the mark", () => {
    const rows = compareBars([latency(2), throughput(1200)], [latency(1), throughput(1000)]);
    expect(regressions(rows).map((r) => r.id)).toEqual(["lat"]);
    const table = comparisonTable(rows, "main abc123").split("\n");
    expect(table[0]).toContain("baseline (main abc123)");
    expect(table[2]).toMatch(/latency p50 +\| 2 ms +\| 1 ms +\| 2x +\| WORSE/);
    expect(table[3]).toMatch(/creates\/s +\| 1200 placements\/s +\| 1000 placements\/s +\| 1\.2x +\| better/);
  });
});

describe("baseline figures measured by the baseline's own bench code", () => {
  it("marks them in the table and explains the mark under it; rows of this checkout's code are unmarked", () => {
    const rows = measuredBy(
      compareBars([latency(2), figure("new", "new API", 1, "ms")], [latency(1)]),
      "baseline's own",
    );
    expect(rows.map((row) => row.baselineBenchCode)).toEqual(["baseline's own", undefined]);
    const table = comparisonTable(rows, "d77d930");
    expect(table.split("\n")[2]).toMatch(/latency p50 +\| 2 ms +\| 1 ms \(own bench\) +\| 2x +\| WORSE/);
    expect(table).toContain("measured by REF's own bench code");
    const ours = measuredBy(compareBars([latency(2)], [latency(1)]), "this checkout");
    expect(ours[0]!.baselineBenchCode).toBeUndefined();
    expect(comparisonTable(ours, "main")).not.toContain("own bench");
  });
});
