import { describe, expect, it } from "vitest";
import { withGcTime } from "./gc.js";

describe("withGcTime", () => {
  it("counts the GC pauses of allocation-heavy work and returns its result", async () => {
    const { result, gcMs, gcPauses } = await withGcTime(async () => {
      let kept: { i: number }[] = [];
      for (let i = 0; i < 2_000_000; i++) {
        kept.push({ i });
        if (kept.length > 100_000) kept = [];
      }
      return kept.length;
    });
    expect(result).toBeGreaterThan(0);
    expect(gcPauses).toBeGreaterThan(0);
    expect(gcMs).toBeGreaterThanOrEqual(0);
  });
});
