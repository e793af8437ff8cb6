/**
 * What a dry run decided, in the engine's own terms (protocols shape it:
 * berthd answers LXD-style JSON with an HTTP status for a rejection).
 */
import type { EngineError } from "../errors.js";
import type { DecidedBy } from "../pipeline/decide.js";
import type { ScriptletCost, ScriptletLogLine } from "../scriptlet/port.js";

export type DryRunDecision =
  | { outcome: "placed"; member: string; decidedBy: DecidedBy }
  /** The placement would fail with `error` (no capacity, a scriptlet rejection, a bad target...). */
  | { outcome: "rejected"; error: EngineError };

export interface DryRunOutcome {
  decision: DryRunDecision;
  /** The members that passed every filter, in the order the decision saw them. */
  candidates: string[];
  scriptletRan: boolean;
  logs: ScriptletLogLine[];
  /** What the scriptlet run cost (zeros when none ran). */
  cost: ScriptletCost;
}
