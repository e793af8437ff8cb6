/**
 * What a dry run decided, in the engine's own terms (protocols shape it:
 * berthd answers LXD-style JSON with an HTTP status for a rejection).
 */
import type { EngineError } from "../base/errors.js";
import type { DecidedBy } from "../decide/decide.js";
import type { ScriptletCost, ScriptletLogLine } from "../scriptlet/port.js";
import type { RejectionGroup } from "../store/records.js";

/** What a dry run decided: the member a real create would take, or the error it would fail with. */
export type DryRunDecision =
  | {
      /** A real create would be placed. */
      outcome: "placed";
      /** The member it would land on. */
      member: string;
      /** Who would choose it: the request's target, the scriptlet, or the default policy. */
      decidedBy: DecidedBy;
    }
  /** The placement would fail with `error` (no capacity, a scriptlet rejection, a bad target...). */
  | {
      /** A real create would fail. */
      outcome: "rejected";
      /** The error it would fail with (its kind gives the HTTP status, its message the text). */
      error: EngineError;
    };

/**
 * A dry run's answer: the decision, the candidates and rejections behind it, and the scriptlet's
 * logs and cost.
 */
export interface DryRunOutcome {
  /** Placed on a member, or rejected with an error. */
  decision: DryRunDecision;
  /** The members that passed every filter, in the order the decision saw them. */
  candidates: string[];
  /**
   * Every other member, grouped by the first reason it was turned down for
   * (most frequent first, the first few named): what the decision record of
   * a real placement would keep, or why nothing fitted. Empty for a member
   * target that fits.
   */
  rejections: RejectionGroup[];
  /** Whether a scriptlet ran (a member target and `""` skip it). */
  scriptletRan: boolean;
  /** The scriptlet's log lines. */
  logs: ScriptletLogLine[];
  /** What the scriptlet run cost (zeros when none ran). */
  cost: ScriptletCost;
}
