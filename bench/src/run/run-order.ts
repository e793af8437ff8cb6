/**
 * The order the builds run in, per run of a step: as given in even runs
 * (0, 2, ...), reversed in odd ones, so with --runs=2 (or any even count)
 * each build runs first as often as second, and a machine that drifts slower
 * or faster over a step does not favour one build.
 */
export function runOrder<T>(builds: readonly T[], run: number): T[] {
  return run % 2 === 0 ? [...builds] : [...builds].reverse();
}
