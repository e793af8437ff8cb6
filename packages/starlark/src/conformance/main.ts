/**
 * Runs the go.starlark.net conformance folders and prints one line per failing chunk plus
 * totals per file:
 *   node dist/conformance/main.js [--suite=2021|upstream] [DIR] [-v]
 */
import { ConformanceRunner, findConformanceDir, summarize } from "./runner.js";
import { SUITES } from "./suites.js";

const verbose = process.argv.includes("-v");
const suiteArg = process.argv.find((a) => a.startsWith("--suite="))?.slice("--suite=".length);
const dirArg = process.argv.slice(2).find((a) => !a.startsWith("-"));
const suites = SUITES.filter((s) => suiteArg === undefined || s.name === suiteArg);
if (suites.length === 0) {
  process.stderr.write(`starlark conformance: unknown suite ${suiteArg} (want 2021 or upstream)\n`);
  process.exit(2);
}
let failed = 0;
for (const suite of suites) {
  const dir = dirArg ?? findConformanceDir(process.cwd(), suite.dirName);
  if (dir === undefined) {
    process.stdout.write(`conformance (${suite.name}): skipped, ../shared/${suite.dirName} not found\n`);
    continue;
  }
  const results = new ConformanceRunner(dir, suite).runAll();
  for (const r of results) {
    if (r.status === "pass" && !verbose) continue;
    process.stdout.write(`${r.status.toUpperCase()} ${r.id}${r.reason ? ` (${r.reason})` : ""}\n`);
    for (const p of r.problems) process.stdout.write(`    ${p}\n`);
  }
  const files = [...new Set(results.map((r) => r.id.replace(/:\d+$/, "")))];
  for (const f of files) {
    const t = summarize(results.filter((r) => r.id.replace(/:\d+$/, "") === f));
    process.stdout.write(
      `  ${f}: ${t.pass + t.fail + t.expected} chunks, ${t.pass} pass, ${t.fail} fail, ${t.expected} expected\n`,
    );
  }
  const t = summarize(results);
  failed += t.fail;
  process.stdout.write(
    `conformance (${suite.name}): ${results.length} chunks: ${t.pass} pass, ${t.fail} fail, ${t.expected} expected differences\n`,
  );
}
process.exitCode = failed > 0 ? 1 : 0;
