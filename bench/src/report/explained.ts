/**
 * Explained regressions: rows a change made more than 10 % worse on purpose,
 * or for a cause that was measured and named, written down with the reason
 * in bench/explained-regressions.json. The gate still prints such a row as
 * worse, with its reason under the table, but does not fail the run on it,
 * as long as the row stays within the worsening the explanation accepts and
 * the run's baseline is the commit the explanation was written against.
 * A row beyond its accepted worsening, or worse against another baseline,
 * fails as before: an explanation covers one measured gap, not the row.
 */
import { readFileSync } from "node:fs";
import { round } from "../measure/stats.js";
import { type ComparedRow, worsening } from "./compare.js";

export interface Explanation {
  /** The baseline commit (at least 7 hex digits of it) the gap was measured against. */
  baseline: string;
  /** The row's id, as in comparison.json. */
  row: string;
  /** The worsening accepted, as a fraction: 0.35 accepts up to 35 % worse (1.35 x a latency, 0.65 x a throughput). */
  atMostWorse: number;
  /** Why the row is worse: the cause, measured, in a sentence or two. */
  why: string;
}

/** The file's path relative to the repository root; its shape is `{ "explanations": Explanation[] }`. */
export const EXPLANATIONS_FILE = "bench/explained-regressions.json";

const HEX = /^[0-9a-f]{7,40}$/;

/**
 * Reads and checks the explanations; every problem is named with its entry's
 * place, so a bad file is refused before a quarter-hour run starts. A missing
 * file means no explanations.
 */
export function parseExplanations(text: string, source = EXPLANATIONS_FILE): Explanation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON: ${(error as Error).message}`);
  }
  const list = (parsed as { explanations?: unknown } | null)?.explanations;
  if (typeof parsed !== "object" || parsed === null || !Array.isArray(list))
    throw new Error(`${source}: expected an object with an "explanations" array`);
  const seen = new Set<string>();
  return list.map((entry: unknown, index) => {
    const where = `${source}: explanations[${index}]`;
    if (typeof entry !== "object" || entry === null) throw new Error(`${where}: expected an object`);
    const { baseline, row, atMostWorse, why, ...rest } = entry as Record<string, unknown>;
    const stray = Object.keys(rest);
    if (stray.length > 0) throw new Error(`${where}: unknown field "${stray[0]}"`);
    if (typeof baseline !== "string" || !HEX.test(baseline))
      throw new Error(`${where}: "baseline" must be a commit: 7 to 40 lowercase hex digits`);
    if (typeof row !== "string" || row.length === 0) throw new Error(`${where}: "row" must be a row id`);
    if (typeof atMostWorse !== "number" || !(atMostWorse > 0.1 && atMostWorse <= 10))
      throw new Error(
        `${where}: "atMostWorse" must be a fraction above 0.1 (the gate's own 10 %) and at most 10`,
      );
    if (typeof why !== "string" || why.trim().length < 20)
      throw new Error(`${where}: "why" must say why, in at least 20 characters`);
    const key = `${baseline} ${row}`;
    if (seen.has(key)) throw new Error(`${where}: row "${row}" is explained twice against ${baseline}`);
    seen.add(key);
    return { baseline, row, atMostWorse, why: why.trim() };
  });
}

/** The explanations in `path`; none when the file does not exist. */
export function readExplanations(path: string): Explanation[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return parseExplanations(text, path);
}

/** What the explanations did to one run's rows. */
export interface ExplainedRun {
  /** The rows, with the explained ones' verdict "explained" and their reason attached. */
  rows: ComparedRow[];
  /** Explanations for this baseline whose row was worse than they accept: the row stays "worse". */
  exceeded: { row: string; worse: number; atMostWorse: number }[];
  /** Explanations for this baseline whose row was measured and is no longer worse: candidates to delete. */
  unneeded: string[];
}

/**
 * Applies the explanations written against `baselineCommit` (matched by
 * prefix) to the compared rows. Only rows the gate marked "worse" change.
 */
export function applyExplanations(
  rows: readonly ComparedRow[],
  explanations: readonly Explanation[],
  baselineCommit: string,
): ExplainedRun {
  const mine = new Map(
    explanations.filter((e) => baselineCommit.startsWith(e.baseline)).map((e) => [e.row, e]),
  );
  const exceeded: ExplainedRun["exceeded"] = [];
  const unneeded: string[] = [];
  const out = rows.map((row): ComparedRow => {
    const explanation = mine.get(row.id);
    if (explanation === undefined || row.current === null || row.baseline === null) return row;
    if (row.verdict !== "worse") {
      if (row.verdict === "same" || row.verdict === "better") unneeded.push(row.id);
      return row;
    }
    const worse = round(worsening(row.current, row.baseline, row.better as "lower" | "higher"), 3);
    if (worse > explanation.atMostWorse) {
      exceeded.push({ row: row.id, worse, atMostWorse: explanation.atMostWorse });
      return row;
    }
    return { ...row, verdict: "explained", explanation: explanation.why };
  });
  return { rows: out, exceeded, unneeded };
}

const percent = (fraction: number) => `${round(fraction * 100, 1)} %`;

/** The lines under the table: each explained row's reason, and what did not apply. */
export function explanationText(run: ExplainedRun): string {
  const lines: string[] = [];
  const explained = run.rows.filter((row) => row.verdict === "explained");
  if (explained.length > 0) {
    lines.push("explained (worse, not failing the gate; bench/explained-regressions.json):");
    for (const row of explained) lines.push(`- ${row.id} (${row.ratio}x): ${row.explanation}`);
  }
  if (run.exceeded.length > 0)
    lines.push("explained, but worse than the explanation accepts (failing the gate):");
  for (const { row, worse, atMostWorse } of run.exceeded)
    lines.push(
      `- ${row}: ${percent(worse)} worse, beyond the ${percent(atMostWorse)} its explanation accepts`,
    );
  if (run.unneeded.length > 0)
    lines.push(`explanations no longer needed (their rows are within 10 %): ${run.unneeded.join(", ")}`);
  return lines.join("\n");
}
