/**
 * Figures each reliability test reports (requests sent, successes,
 * overcommits, fuzz cases...). Tests write one JSON file each into a
 * directory the global setup provides; its teardown prints them as one block
 * at the end of the run and writes bench/results/reliability.json.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export type Figures = Record<string, number | string | boolean>;

/**
 * "full": the quality bars' sizes (`pnpm test:reliability`); "ci": the same
 * tests at a bounded size for the normal test run.
 */
export type ReliabilityScale = "full" | "ci";

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityFiguresDir: string;
    reliabilityScale: ReliabilityScale;
  }
}

/** Picks the full-size or the bounded figure for this run. */
export function sized<T>(full: T, ci: T): T {
  return inject("reliabilityScale") === "full" ? full : ci;
}

export function recordFigures(test: string, figures: Figures): void {
  const dir = inject("reliabilityFiguresDir");
  writeFileSync(join(dir, `${test.replace(/[^a-z0-9-]+/gi, "_")}.json`), JSON.stringify({ test, figures }));
}
