#!/usr/bin/env node
// Adds up the JSON reports every package's vitest run wrote and prints one
// closing line, "tests: N passed, N failed", that CI and people can read at a glance.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
// The workspace's packages: every folder under packages/ and apps/, plus bench/.
const workspaces = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => `${group}/${name}`),
);
if (existsSync(join(root, "bench", "package.json"))) workspaces.push("bench");
for (const workspace of workspaces) {
  const report = join(root, workspace, "reports", "vitest.json");
  if (!existsSync(report)) {
    missing.push(workspace);
    continue;
  }
  const data = JSON.parse(readFileSync(report, "utf8"));
  passed += data.numPassedTests ?? 0;
  failed += data.numFailedTests ?? 0;
  skipped += (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0);
}
if (missing.length > 0) {
  console.error(`no test report from: ${missing.join(", ")}`);
  failed += missing.length;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
