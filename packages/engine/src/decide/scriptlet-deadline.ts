/**
 * One wall-clock budget for all scriptlet runs of an operation (a bulk
 * create, an evacuation, a rebalance, a healing pass): each run gets the
 * smaller of its own deadline and what is left of the operation's, and once
 * nothing is left the next run fails without starting. Without it a bulk of
 * N placements could hold the server for N times the per-run deadline.
 */
import { thenOrNow } from "../base/then-or-now.js";
import type { ScriptletResult, ScriptletRunner } from "../scriptlet/port.js";

/** The text of a run refused or cut short because the operation's budget ran out. */
export function operationDeadlineMessage(totalMs: number): string {
  return `Failed instance placement scriptlet: Failed to run: the operation's scriptlet time of ${totalMs} ms (instances.placement.scriptlet.total_timeout_ms) ran out`;
}

/** Starlark's own text for a run stopped at its deadline (the per-run timeout). */
const RUN_DEADLINE = /Starlark computation cancelled: deadline exceeded$/;

/**
 * `host` with every run bounded by what is left of `totalMs` from now. Synchronous when the
 * host's run is (the in-process runner): no promise is added here.
 */
export function withOperationDeadline(
  host: ScriptletRunner,
  totalMs: number,
  now: () => number = Date.now,
): ScriptletRunner["run"] {
  const deadline = now() + totalMs;
  // Stopped by the operation's budget, not by its own deadline: say which.
  const named = (result: ScriptletResult): ScriptletResult =>
    result.outcome.kind === "rejected" && RUN_DEADLINE.test(result.outcome.message)
      ? { ...result, outcome: { kind: "rejected", message: operationDeadlineMessage(totalMs) } }
      : result;
  return (version, source, call, log) => {
    const left = deadline - now();
    if (left <= 0) {
      return {
        outcome: { kind: "rejected", message: operationDeadlineMessage(totalMs) },
        logs: [],
        cost: { steps: 0, ms: 0 },
      } satisfies ScriptletResult;
    }
    if (left >= call.limits.timeoutMs) return host.run(version, source, call, log);
    const result = host.run(version, source, { ...call, limits: { ...call.limits, timeoutMs: left } }, log);
    return thenOrNow(result, named);
  };
}
