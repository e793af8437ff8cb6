import { describe, expect, it } from "vitest";
import { atLeast, atMost, figure } from "./results.js";
import { markdownTable, starlarkBars } from "./summary.js";

describe("combined table", () => {
  it("judges bars against their targets", () => {
    expect(atMost("a", "latency", 0.8, 1, "ms").met).toBe(true);
    expect(atMost("a", "latency", 1.2, 1, "ms").met).toBe(false);
    expect(atLeast("b", "throughput", 999, 1000, "placements/s")).toMatchObject({
      target: ">= 1000 placements/s",
      met: false,
    });
    expect(figure("c", "extra", 5, "ms").met).toBeNull();
  });

  it("compares each Starlark workload with go.starlark.net and skips the start-up baseline", () => {
    const bars = starlarkBars({
      results: [
        { workload: "fib_rec", outputMatches: true, inProcessMedianMs: 80, goReferenceWallMs: 94 },
        { workload: "placement", outputMatches: true, inProcessMedianMs: 300, goReferenceWallMs: 152 },
        { workload: "strings", outputMatches: false, inProcessMedianMs: 10, goReferenceWallMs: 331 },
        { workload: "empty", outputMatches: true, inProcessMedianMs: 0.1, goReferenceWallMs: 3 },
      ],
    });
    expect(bars.map((b) => [b.id, b.met])).toEqual([
      ["starlark.fib_rec", true],
      ["starlark.placement", false],
      ["starlark.strings", false],
    ]);
    expect(bars[2]!.bar).toContain("OUTPUT WRONG");
  });

  it("prints an aligned Markdown table", () => {
    const table = markdownTable([atMost("a", "one placement", 0.5, 1, "ms"), figure("b", "  p99", 2, "ms")]);
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^\| bar +\| target +\| measured \(median\) \| met\? \|$/);
    expect(lines[2]).toContain("| 0.5 ms ");
    expect(lines[2]).toContain("| yes  |");
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });
});
