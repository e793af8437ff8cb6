/**
 * The `info` texts, as hail words them (Ganeti shows them to the operator,
 * and scripts match on them): per group `Group NAME (POLICY): score: S,
 * successes N, failures M (FailMem: 1, ...) for node(s) A/B`, or `...: No
 * valid allocation solutions, failure reasons: ...`; unconnected groups;
 * `Request successful: ` / `Request failed: ` in front.
 */
import type { FailMode, GroupAttempt, PlacementSearch } from "@berth/engine/ganeti";

/** hail's order of failure kinds. */
const FAIL_ORDER: readonly FailMode[] = [
  "FailMem",
  "FailDisk",
  "FailCPU",
  "FailN1",
  "FailTags",
  "FailDiskCount",
  "FailSpindles",
  "FailInternal",
];

export function failureList(failures: ReadonlyMap<FailMode, number>): string {
  return FAIL_ORDER.filter((mode) => (failures.get(mode) ?? 0) > 0)
    .map((mode) => `${mode}: ${failures.get(mode)}`)
    .join(", ");
}

function failureTotal(failures: ReadonlyMap<FailMode, number>): number {
  let total = 0;
  for (const count of failures.values()) total += count;
  return total;
}

export function scoreText(score: number): string {
  return score.toFixed(8);
}

/** `successes N, failures M (...) for node(s) A/B`. */
export function solutionText(
  successes: number,
  failures: ReadonlyMap<FailMode, number>,
  nodes: readonly string[],
): string {
  return `successes ${successes}, failures ${failureTotal(failures)} (${failureList(failures)}) for node(s) ${nodes.join("/")}`;
}

function attemptText(attempt: GroupAttempt, instance: string): string {
  const group = attempt.group;
  if (attempt.unconnected)
    return `group ${group.name} is not connected to a network required by instance ${instance}`;
  const head = `Group ${group.name} (${group.allocPolicy})`;
  if (attempt.choice === undefined)
    return `${head}: No valid allocation solutions, failure reasons: ${failureList(attempt.failures)}`;
  return `${head}: score: ${scoreText(attempt.choice.score)}, ${solutionText(attempt.successes, attempt.failures, attempt.choice.nodes)}`;
}

/** What every tried group said: unconnected ones first, then those with a solution (best first), then the rest. */
export function searchText(
  search: Pick<PlacementSearch, "attempts" | "chosen"> & { spec: { name: string } },
): string {
  const name = search.spec.name;
  const unconnected = search.attempts.filter((attempt) => attempt.unconnected);
  const solved = search.attempts.filter((attempt) => attempt.choice !== undefined);
  const failed = search.attempts.filter((attempt) => !attempt.unconnected && attempt.choice === undefined);
  if (search.chosen !== undefined) {
    const chosen = search.chosen;
    solved.sort((a, b) => (a === chosen ? -1 : b === chosen ? 1 : 0));
  }
  const parts = [...unconnected, ...solved, ...failed].map((attempt) => attemptText(attempt, name));
  if (search.chosen !== undefined) parts.unshift(`Selected group: ${search.chosen.group.name}`);
  return parts.join(", ");
}

export const successful = (message: string) => `Request successful: ${message}`;
export const failed = (message: string) => `Request failed: ${message}`;
