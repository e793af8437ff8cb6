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

  it("compares each Starlark workload with go.starlark.net of the same run and skips the start-up baseline", () => {
    const row = (
      workload: string,
      outputMatches: boolean,
      inProcess: number,
      whole: number,
      go: number | null,
    ) => ({
      workload,
      outputMatches,
      inProcessMedianMs: inProcess,
      inProcessMedianCpuMs: inProcess,
      wholeProcessMedianMs: whole,
      goWholeProcessMedianMs: go,
    });
    const bars = starlarkBars({
      results: [
        row("fib_rec", true, 40, 300, 100),
        row("placement", true, 80, 400, 150),
        row("strings", false, 10, 300, 331),
        row("dict_heavy", true, 200, 700, 671),
        row("empty", true, 0.1, 60, 3),
      ],
    });
    expect(bars.map((b) => [b.id, b.target, b.met])).toEqual([
      ["starlark.fib_rec", "<= 50 ms (0.5 x go.starlark.net's 100 ms, same run)", true],
      ["starlark.placement", "<= 75 ms (0.5 x go.starlark.net's 150 ms, same run)", false],
      ["starlark.strings", "<= 165.5 ms (0.5 x go.starlark.net's 331 ms, same run)", false],
      ["starlark.strings.process", "<= 331 ms (go.starlark.net, same run)", false],
      ["starlark.dict_heavy", "<= 335.5 ms (0.5 x go.starlark.net's 671 ms, same run)", true],
      ["starlark.dict_heavy.process", "<= 671 ms (go.starlark.net, same run)", false],
    ]);
    expect(bars[2]!.bar).toContain("OUTPUT WRONG");
  });

  it("says when go.starlark.net was unavailable and judges no Starlark row", () => {
    const bars = starlarkBars({
      goStarlark: { available: false, reason: "no Go toolchain (install Debian's golang-go)" },
      results: [
        {
          workload: "fib_loop",
          outputMatches: true,
          inProcessMedianMs: 100,
          wholeProcessMedianMs: 200,
          goWholeProcessMedianMs: null,
        },
      ],
    });
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({
      target: "vs go.starlark.net: unavailable (no Go toolchain (install Debian's golang-go))",
      met: null,
    });
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
