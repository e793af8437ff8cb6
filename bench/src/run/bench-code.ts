/**
 * Which bench code measures the baseline of `pnpm bench --baseline=REF`.
 * By default this checkout's (the figures then compare builds, not benches);
 * but a REF from before an engine API our benches call (say
 * `engine.instances.create`, where REF has `engine.create`) fails every such
 * step, and all its rows would say "n/a in baseline". Then REF's own bench
 * code, kept in REF's worktree beside ours, measures that step instead, and
 * the report says so: those figures compare builds measured by two benches.
 */

/** This checkout's compiled bench code laid over REF's packages, or REF's own bench code. */
export type BenchCode = "this checkout" | "baseline's own";

/**
 * The bench codes to try, in order, for one run of a step against the
 * baseline. Until a run of the step succeeds: this checkout's first, then
 * REF's own when that failed and REF has bench code of its own. Once one
 * succeeded, `measuredBy` says which, and every later run uses that one
 * alone, so a step's median never mixes figures of two benches.
 */
export function benchCodesToTry(measuredBy: BenchCode | undefined, baselineHasOwnCode: boolean): BenchCode[] {
  if (measuredBy !== undefined) return [measuredBy];
  return baselineHasOwnCode ? ["this checkout", "baseline's own"] : ["this checkout"];
}
