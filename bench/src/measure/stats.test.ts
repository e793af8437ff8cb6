import { describe, expect, it } from "vitest";
import { distribution, median, percentile } from "./stats.js";

describe("stats", () => {
  it("takes nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it("gives the median of odd and even counts, unsorted input", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("summarises a distribution", () => {
    const d = distribution([5, 1, 4, 2, 3]);
    expect(d).toMatchObject({ samples: 5, p50: 3, min: 1, max: 5, mean: 3 });
  });

  it("refuses empty input with a clear error", () => {
    expect(() => median([])).toThrow("median of no values");
    expect(() => percentile([], 50)).toThrow("percentile of no samples");
  });
});
