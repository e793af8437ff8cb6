import { describe, expect, it } from "vitest";
import { medianBars } from "./median-bars.js";
import { atLeast, atMost, figure } from "./results.js";

describe("medians over runs", () => {
  it("takes each row's median and judges it again against its target", () => {
    const runs = [0.9, 1.4, 1.2].map((p50) => [
      atMost("lat", "p50", p50, 1, "ms"),
      figure("rss", "RSS", p50 * 100, "MiB"),
    ]);
    const [lat, rss] = medianBars(runs);
    expect(lat).toMatchObject({ id: "lat", measured: 1.2, met: false, target: "<= 1 ms" });
    expect(rss).toMatchObject({ id: "rss", measured: 120, met: null });
    const floors = [900, 1100, 1200].map((rate) => [atLeast("tput", "rate", rate, 1000, "placements/s")]);
    expect(medianBars(floors)[0]).toMatchObject({ measured: 1100, met: true });
  });

  it("shows the mean of two runs without binary floating-point noise", () => {
    // (0.1 + 0.2) / 2 is 0.15000000000000002, (183.551 + 183.571) / 2 is 183.56099999999998.
    const small = medianBars([[figure("cpu", "CPU", 0.1, "ms")], [figure("cpu", "CPU", 0.2, "ms")]]);
    expect(small[0]!.measured).toBe(0.15);
    const large = medianBars([[figure("p99", "p99", 183.551, "ms")], [figure("p99", "p99", 183.571, "ms")]]);
    expect(large[0]!.measured).toBe(183.561);
  });

  it("keeps rows a run lacks, over the runs that have them, in first-seen order", () => {
    const bars = medianBars([
      [figure("a", "a", 1, "ms")],
      [figure("b", "b", 5, "ms"), figure("a", "a", 3, "ms")],
    ]);
    expect(bars.map((b) => [b.id, b.measured])).toEqual([
      ["a", 2],
      ["b", 5],
    ]);
  });

  it("keeps a target without a number met only when every run met it", () => {
    const judged = (met: boolean) => ({
      id: "s",
      bar: "starlark",
      target: "vs go",
      measured: 1,
      unit: "ms",
      met,
    });
    expect(medianBars([[judged(true)], [judged(false)], [judged(true)]])[0]!.met).toBe(false);
    expect(medianBars([[judged(true)], [judged(true)]])[0]!.met).toBe(true);
  });
});
