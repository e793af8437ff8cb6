import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../measure/temp.js";
import { compareBars } from "./compare.js";
import { applyExplanations, parseExplanations, readExplanations } from "./explained.js";
import { atLeast, atMost } from "./results.js";

const WHY = "a measured cause, named in a sentence";
const entry = (fields: Record<string, unknown>) =>
  JSON.stringify({
    explanations: [{ baseline: "d77d930", row: "lat", atMostWorse: 0.3, why: WHY, ...fields }],
  });

describe("reading bench/explained-regressions.json", () => {
  it("reads well-formed entries", () => {
    expect(parseExplanations(entry({}))).toEqual([
      { baseline: "d77d930", row: "lat", atMostWorse: 0.3, why: WHY },
    ]);
  });

  it.each([
    [{ baseline: "main" }, '"baseline" must be a commit'],
    [{ baseline: "d77d9" }, '"baseline" must be a commit'],
    [{ row: "" }, '"row" must be a row id'],
    [{ atMostWorse: 0.05 }, '"atMostWorse" must be a fraction above 0.1'],
    [{ atMostWorse: "30 %" }, '"atMostWorse" must be a fraction above 0.1'],
    [{ why: "slower" }, '"why" must say why'],
    [{ because: "x" }, 'unknown field "because"'],
  ])("refuses %j, naming the problem and the entry", (fields, problem) => {
    expect(() => parseExplanations(entry(fields), "f.json")).toThrow(`f.json: explanations[0]: ${problem}`);
  });

  it("refuses a file that is not JSON, has no list, or explains one row twice against one baseline", () => {
    expect(() => parseExplanations("{", "f.json")).toThrow("f.json: not JSON");
    expect(() => parseExplanations("[]", "f.json")).toThrow(
      'expected an object with an "explanations" array',
    );
    const one = { baseline: "d77d930", row: "lat", atMostWorse: 0.3, why: WHY };
    expect(() => parseExplanations(JSON.stringify({ explanations: [one, one] }))).toThrow(
      'row "lat" is explained twice against d77d930',
    );
  });

  describe("from a file", () => {
    let temp: ReturnType<typeof tempDir>;
    beforeEach(() => {
      temp = tempDir("explained-test");
    });
    afterEach(() => temp.cleanup());

    it("gives none when the file does not exist, and the entries when it does", () => {
      const path = join(temp.dir, "explained.json");
      expect(readExplanations(path)).toEqual([]);
      writeFileSync(path, entry({}));
      expect(readExplanations(path)).toHaveLength(1);
    });
  });
});

describe("applying explanations to a run's rows", () => {
  const BASELINE = `d77d930${"0".repeat(33)}`;
  const latency = (id: string, value: number) => atMost(id, id, value, 10, "ms");
  const rate = (id: string, value: number) => atLeast(id, id, value, 1, "placements/s");
  const rows = compareBars(
    [latency("lat", 1.25), latency("far", 2), latency("fine", 1), latency("plain", 1.5), rate("tput", 70)],
    [latency("lat", 1), latency("far", 1), latency("fine", 1), latency("plain", 1), rate("tput", 100)],
  );
  const explanations = parseExplanations(
    JSON.stringify({
      explanations: ["lat", "far", "fine", "tput"].map((row) => ({
        baseline: "d77d930",
        row,
        atMostWorse: 0.3,
        why: WHY,
      })),
    }),
  );

  it("marks a worse row within its accepted worsening as explained, in the row's direction", () => {
    const { rows: out } = applyExplanations(rows, explanations, BASELINE);
    const verdicts = Object.fromEntries(out.map((row) => [row.id, row.verdict]));
    expect(verdicts).toEqual({
      lat: "explained",
      far: "worse",
      fine: "same",
      plain: "worse",
      tput: "explained",
    });
    expect(out.find((row) => row.id === "lat")!.explanation).toBe(WHY);
  });

  it("reports a row beyond its explanation and an explanation no longer needed", () => {
    const { exceeded, unneeded } = applyExplanations(rows, explanations, BASELINE);
    expect(exceeded).toEqual([{ row: "far", worse: 1, atMostWorse: 0.3 }]);
    expect(unneeded).toEqual(["fine"]);
  });

  it("applies nothing written against another baseline", () => {
    const { rows: out } = applyExplanations(rows, explanations, "a".repeat(40));
    expect(out.filter((row) => row.verdict === "explained")).toEqual([]);
  });
});
