import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { machineInfo } from "../measure/machine.js";
import { tempDir } from "../measure/temp.js";
import type { StepOutcome } from "../run/run-step.js";
import { compareBars } from "./compare.js";
import { benchCodeText, type ComparisonRun, writeComparison } from "./comparison-report.js";
import type { Explanation } from "./explained.js";
import { atMost } from "./results.js";

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir("comparison-report-test");
});
afterEach(() => temp.cleanup());

const run = (current: number, baseline: number, explanations: Explanation[] = []): ComparisonRun => ({
  machine: machineInfo(),
  quick: true,
  runs: 1,
  order: "this build first",
  current: { commit: "a".repeat(40) },
  baseline: { ref: "main", commit: "b".repeat(40) },
  totalMs: 1,
  steps: [],
  rows: compareBars(
    [atMost("lat", "latency", current, 1, "ms")],
    [atMost("lat", "latency", baseline, 1, "ms")],
  ),
  explanations,
  confirmations: [],
  caption: "2 CPUs",
});

describe("the gate's report files", () => {
  it("names the worse rows in the verdict and in comparison.json", () => {
    const { text, regressed } = writeComparison(temp.dir, run(2, 1));
    expect(regressed).toEqual(["lat"]);
    expect(text).toContain("1 row(s) more than 10 % worse than the baseline: lat");
    expect(text).toContain("baseline (main bbbbbbbbbbbb)");
    expect(readFileSync(join(temp.dir, "comparison.md"), "utf8")).toBe(text);
    const json = JSON.parse(readFileSync(join(temp.dir, "comparison.json"), "utf8"));
    expect(json).toMatchObject({ regressions: ["lat"], baseline: { ref: "main" }, rows: [{ ratio: 2 }] });
    expect(json.caption).toBeUndefined();
  });

  it("lists the steps re-measured to confirm a worse row, in the text and in comparison.json", () => {
    const confirmation = {
      step: "placement",
      flagged: [{ id: "lat", ratio: 1.4 }],
      firstRuns: 1,
      runs: 3,
      after: { lat: "same (1.05)" },
    };
    const { text } = writeComparison(temp.dir, { ...run(1.05, 1), confirmations: [confirmation] });
    expect(text).toContain("re-measured placement: after 1 run(s) lat (1.4) came out worse; over 3");
    const json = JSON.parse(readFileSync(join(temp.dir, "comparison.json"), "utf8"));
    expect(json.confirmations).toEqual([confirmation]);
  });

  it("says so when no row is worse", () => {
    expect(writeComparison(temp.dir, run(1, 1))).toMatchObject({ regressed: [] });
    expect(readFileSync(join(temp.dir, "comparison.md"), "utf8")).toContain(
      "no unexplained row more than 10 % worse than the baseline",
    );
  });

  it("does not fail on a row explained against this baseline, and prints the reason", () => {
    const why = "the change feed's log insert, measured statement by statement";
    const explained = { baseline: "bbbbbbb", row: "lat", atMostWorse: 1.5, why };
    const { text, regressed } = writeComparison(temp.dir, run(2, 1, [explained]));
    expect(regressed).toEqual([]);
    expect(text).toContain(`- lat (2x): ${why}`);
    expect(text).toContain("no unexplained row more than 10 % worse than the baseline (1 more, explained)");
    const json = JSON.parse(readFileSync(join(temp.dir, "comparison.json"), "utf8"));
    expect(json).toMatchObject({ regressions: [], rows: [{ verdict: "explained", explanation: why }] });
    expect(json.explanations).toBeUndefined();
  });

  it("fails on a row worse than its explanation accepts, and on one explained against another baseline", () => {
    const why = "the change feed's log insert, measured statement by statement";
    const tooFar = writeComparison(
      temp.dir,
      run(2, 1, [{ baseline: "bbbbbbb", row: "lat", atMostWorse: 0.5, why }]),
    );
    expect(tooFar.regressed).toEqual(["lat"]);
    expect(tooFar.text).toContain("- lat: 100 % worse, beyond the 50 % its explanation accepts");
    const other = writeComparison(
      temp.dir,
      run(2, 1, [{ baseline: "ccccccc", row: "lat", atMostWorse: 1.5, why }]),
    );
    expect(other.regressed).toEqual(["lat"]);
  });
});

describe("which bench code measured each side", () => {
  const outcome = (
    step: string,
    build: string,
    ok: boolean,
    benchCode: StepOutcome["benchCode"],
  ): StepOutcome => ({
    step,
    build,
    run: 0,
    ok,
    ms: 1,
    benchCode,
  });
  it("names the steps the baseline's own bench code measured after ours failed there", () => {
    const text = benchCodeText(
      [
        outcome("placement", "this build", true, "this checkout"),
        outcome("placement", "baseline d77", false, "this checkout"),
        outcome("placement", "baseline d77", true, "baseline's own"),
        outcome("http", "this build", true, "this checkout"),
        outcome("http", "baseline d77", true, "this checkout"),
        outcome("soak", "this build", true, "this checkout"),
        outcome("soak", "baseline d77", false, "this checkout"),
        outcome("soak", "baseline d77", false, "baseline's own"),
      ],
      "this build",
    );
    expect(text).toBe(
      "bench code: placement: this checkout's for this build, the baseline's own for the baseline (this checkout's failed against its packages); http: this checkout's for both builds; soak: the baseline failed",
    );
  });
});
