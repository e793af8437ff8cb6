import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ChunkResult, ConformanceRunner, findConformanceDir, summarize } from "./runner.js";
import { SUITE_UPSTREAM, SUITES } from "./suites.js";

const here = dirname(fileURLToPath(import.meta.url));

/** "assign.star:12" -> "assign.star". */
const fileOf = (id: string): string => id.replace(/:\d+$/, "");

for (const suite of SUITES) {
  const dir = findConformanceDir(here, suite.dirName);
  if (dir === undefined) {
    describe(`go.starlark.net conformance (${suite.name})`, () => {
      it.skip(`skipped: ../shared/${suite.dirName} is not present beside the repository`, () => {});
    });
    console.log(`starlark conformance (${suite.name}): skipped, ../shared/${suite.dirName} not found`);
    continue;
  }
  const results: ChunkResult[] = new ConformanceRunner(dir, suite).runAll();
  const files = [...new Set(results.map((r) => fileOf(r.id)))];
  const totals = summarize(results);
  const lines = files.map((f) => {
    const t = summarize(results.filter((r) => fileOf(r.id) === f));
    return `  ${f}: ${t.pass + t.fail + t.expected} chunks, ${t.pass} pass, ${t.fail} fail, ${t.expected} expected`;
  });
  console.log(
    `starlark conformance (${suite.name}, ${dir}): ${results.length} chunks: ${totals.pass} pass, ${totals.fail} fail, ${totals.expected} expected differences\n${lines.join("\n")}`,
  );

  describe(`go.starlark.net conformance (${suite.name}: ../shared/${suite.dirName})`, () => {
    it("runs every chunk of every file of the suite", () => {
      const counts = Object.fromEntries(
        files.map((f) => [f, results.filter((r) => fileOf(r.id) === f).length]),
      );
      expect(counts).toEqual(suite.chunkCounts);
    });

    it("keeps the reviewed expected-differences list short and justified", () => {
      const own = [...suite.expectedDifferences.values()].filter((d) => d.upstream === undefined);
      expect(own.length).toBeLessThanOrEqual(suite.maxExpectedDifferences);
      for (const [id, diff] of suite.expectedDifferences) {
        expect(diff.reason.length, id).toBeGreaterThan(20);
        expect(
          results.find((r) => r.id === id)?.status,
          `${id} no longer differs as listed: review the entry`,
        ).toBe("expected-difference");
      }
    });

    const upstreamChanges = [...suite.expectedDifferences].filter(([, d]) => d.upstream !== undefined);
    const upstreamDir = findConformanceDir(here, SUITE_UPSTREAM.dirName);
    if (upstreamChanges.length > 0) {
      it.skipIf(upstreamDir === undefined)(
        "shows each upstream change in the newest data (skipped when ../shared/starlark-upstream is absent)",
        () => {
          for (const [id, diff] of upstreamChanges) {
            const { file, text } = diff.upstream as { file: string; text: string };
            const data = readFileSync(join(upstreamDir as string, file), "utf8");
            expect(data.includes(text), `${id}: ${file} should contain ${text}`).toBe(true);
          }
        },
      );
    }

    for (const file of files) {
      describe(file, () => {
        for (const r of results.filter((x) => fileOf(x.id) === file)) {
          it.skipIf(r.status === "expected-difference")(`chunk ${r.id}`, () => {
            expect(r.problems).toEqual([]);
          });
        }
      });
    }
  });
}
