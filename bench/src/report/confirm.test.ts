import { describe, expect, it } from "vitest";
import { compareBars } from "./compare.js";
import { confirmationText, confirmed, rowsToConfirm } from "./confirm.js";
import type { Explanation } from "./explained.js";
import { atMost, figure } from "./results.js";

const BASELINE = "d77d930aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const rows = (lat: number, cpu: number) =>
  compareBars(
    [atMost("lat", "latency", lat, 10, "ms"), figure("cpu", "cpu", cpu, "ms")],
    [atMost("lat", "latency", 1, 10, "ms"), figure("cpu", "cpu", 1, "ms")],
  );
const explained = (atMostWorse: number): Explanation => ({
  baseline: "d77d930",
  row: "cpu",
  atMostWorse,
  why: "measured elsewhere",
});

describe("confirming a regression before the gate fails on it", () => {
  it("re-measures a step for the rows the gate would fail on, not for explained or level ones", () => {
    expect(rowsToConfirm(rows(1.05, 1.05), [], BASELINE)).toEqual([]);
    expect(rowsToConfirm(rows(1.2, 1.05), [], BASELINE).map((r) => r.id)).toEqual(["lat"]);
    expect(rowsToConfirm(rows(1.05, 1.2), [explained(0.3)], BASELINE)).toEqual([]);
    // Worse than its explanation accepts: confirmed like any other.
    expect(rowsToConfirm(rows(1.05, 1.5), [explained(0.3)], BASELINE).map((r) => r.id)).toEqual(["cpu"]);
    // An explanation written against another baseline does not apply.
    expect(rowsToConfirm(rows(1.05, 1.2), [explained(0.3)], "e".repeat(40)).map((r) => r.id)).toEqual([
      "cpu",
    ]);
  });

  it("reports what the flagged rows became over all runs, and says so under the table", () => {
    const flagged = rowsToConfirm(rows(1.3, 1.5), [], BASELINE);
    const confirmation = confirmed("placement", flagged, 1, 3, rows(1.02, 1.4), [], BASELINE);
    expect(confirmation).toEqual({
      step: "placement",
      flagged: [
        { id: "lat", ratio: 1.3 },
        { id: "cpu", ratio: 1.5 },
      ],
      firstRuns: 1,
      runs: 3,
      after: { lat: "same (1.02)", cpu: "worse (1.4)" },
    });
    expect(confirmationText([confirmation])).toBe(
      "re-measured placement: after 1 run(s) lat (1.3), cpu (1.5) came out worse; over 3 alternated runs, each row the median: lat same (1.02), cpu worse (1.4)",
    );
    expect(confirmationText([])).toBe("");
  });
});
