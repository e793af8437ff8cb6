import type { DryRunResult } from "@berth/api-types";
import type { DryRunOutcome } from "@berth/engine";
import { rejectionsToWire } from "./placement-record.js";
import { httpStatusOf } from "./status-of.js";

/**
 * The engine's dry-run outcome as berthd answers it (`POST
 * /1.0/instances?dry_run=true`): snake_case fields, and a rejection's HTTP
 * status in `error_code`, the status the real create would have failed with.
 */
export function dryRunToWire(outcome: DryRunOutcome): DryRunResult {
  const decision: DryRunResult["decision"] =
    outcome.decision.outcome === "placed"
      ? { outcome: "placed", location: outcome.decision.member, decided_by: outcome.decision.decidedBy }
      : {
          outcome: "rejected",
          error: outcome.decision.error.message,
          error_code: httpStatusOf(outcome.decision.error.kind),
        };
  return {
    decision,
    candidates: outcome.candidates,
    rejections: rejectionsToWire(outcome.rejections),
    scriptlet_ran: outcome.scriptletRan,
    log: outcome.logs,
    cost: { steps: outcome.cost.steps, time_ms: outcome.cost.ms },
  };
}
