import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { machineInfo } from "../measure/machine.js";
import { RESULTS_DIR } from "../report/results.js";
import type { Figures } from "./figures.js";

/** Provides the figures directory; at the end prints every test's figures in one block. */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "berth-reliability-figures-"));
  project.provide("reliabilityFiguresDir", dir);
  return () => {
    const entries = readdirSync(dir)
      .sort()
      .map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as { test: string; figures: Figures });
    rmSync(dir, { recursive: true, force: true });
    if (entries.length === 0) return;
    const lines = ["", "=== reliability figures ==="];
    for (const { test, figures } of entries) {
      lines.push(`${test}:`);
      for (const [key, value] of Object.entries(figures)) lines.push(`  ${key}: ${value}`);
    }
    const machine = machineInfo();
    lines.push(
      `(${machine.cpus} CPUs, Node ${machine.node}, load average ${machine.loadAverage.join(" ")})`,
      "",
    );
    process.stdout.write(`${lines.join("\n")}\n`);
    // Only the full-size run is a result worth keeping.
    if (project.config.provide?.reliabilityScale !== "full") return;
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(
      join(RESULTS_DIR, "reliability.json"),
      `${JSON.stringify({ date: new Date().toISOString(), machine, tests: entries }, null, 2)}\n`,
    );
  };
}
