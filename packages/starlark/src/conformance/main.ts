/**
 * Runs the go.starlark.net conformance files and prints one line per chunk plus totals:
 *   node dist/conformance/main.js [CONFORMANCE_DIR] [-v]
 */
import { ConformanceRunner, findConformanceDir, summarize } from "./runner.js";

const verbose = process.argv.includes("-v");
const dirArg = process.argv.slice(2).find((a) => !a.startsWith("-"));
const dir = dirArg ?? findConformanceDir(process.cwd());
if (dir === undefined) {
  process.stderr.write("starlark conformance: ../shared/starlark-conformance not found\n");
  process.exit(2);
}
const results = new ConformanceRunner(dir).runAll();
for (const r of results) {
  if (r.status === "pass" && !verbose) continue;
  process.stdout.write(`${r.status.toUpperCase()} ${r.id}${r.reason ? ` (${r.reason})` : ""}\n`);
  for (const p of r.problems) process.stdout.write(`    ${p}\n`);
}
const t = summarize(results);
process.stdout.write(
  `conformance: ${results.length} chunks: ${t.pass} pass, ${t.fail} fail, ${t.expected} expected differences\n`,
);
process.exitCode = t.fail > 0 ? 1 : 0;
