/**
 * Steps 3 and 4 for one request, against the model: project limits, then a
 * member target checked through the stack, or the stack's ranked candidates
 * handed to the decision (asynchronous only while a scriptlet runs; claims
 * plan one at a time, see claim.ts). This is what a claim that lost a race
 * re-runs.
 */

import { insufficientCapacity } from "../base/errors.js";
import { thenOrNow } from "../base/then-or-now.js";
import { hasLimits, requireDeclaredLimits } from "../expand/project-limits.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import { projectLimitMessage, shownLimit } from "../rules/claims/failures.js";
import { exceededLimit } from "../rules/claims/project-limits.js";
import { PROJECT_LIMIT_KEYS, projectUsageOf } from "../rules/claims/project-usage.js";
import type { PlacementDecisionRecord } from "../store/records.js";
import type { PlanContext } from "./context.js";
import { type Decision, decide, type ScriptletSetup } from "./decide.js";
import { currentVerdicts, explainPlacement, type PlacementExplanation } from "./explain.js";
import { checkNamedMember } from "./named-member.js";
import { decisionRecord } from "./record.js";

/**
 * Model-level project limit check (the store re-checks atomically, with the
 * same rule), in LXD's order: instance counts, then every aggregate limit
 * the project sets must be declared by the instance, then the aggregates.
 */
function checkProjectLimits(model: ClusterModel, request: PlacementRequest): void {
  const limits = request.limits;
  // Most projects have no limits: skip building the checks (bulk plans this per instance).
  if (!hasLimits(limits)) return;
  const project = request.projectName;
  const excess = exceededLimit(limits, model.projectUsageOf(project), projectUsageOf(request));
  const failure = () => {
    const { limit, value, max } = excess!;
    const configured = request.project.config[PROJECT_LIMIT_KEYS[limit]] ?? shownLimit(limit, max);
    return insufficientCapacity(projectLimitMessage(project, limit, configured), {
      reason: "project_limit",
      project,
      limit,
      value,
      max,
    });
  };
  if (excess !== undefined && COUNT_DIMENSIONS.has(excess.limit)) throw failure();
  requireDeclaredLimits(request);
  if (excess !== undefined) throw failure();
}

/** Limits on how many instances, checked before anything else (LXD's checkInstanceCountLimit). */
const COUNT_DIMENSIONS: ReadonlySet<string> = new Set(["instances", "containers", "virtualMachines"]);

export interface PlanOptions {
  /** Scriptlet to consult; null when none is configured or the flow skips it. */
  scriptlet: ScriptletSetup | null;
  /**
   * List every candidate in order (dry runs). Without a scriptlet the
   * default policy otherwise takes the stack's first candidate, and
   * `Decision.candidates` may name only the chosen member.
   */
  listAll?: boolean;
}

/** A decision and why the other members were not chosen. */
export interface PlannedDecision extends Decision {
  /** Null for an explicit member target (no candidate search ran). */
  explanation: PlacementExplanation | null;
}

/** Synchronous unless a scriptlet runs (see decide.ts): the default policy's plans take no promise hop. */
export function plan(
  context: PlanContext,
  request: PlacementRequest,
  options: PlanOptions,
): PlannedDecision | Promise<PlannedDecision> {
  const model = context.model;
  // Moves and evacuations add no instance to the project.
  if (request.reason === "new") checkProjectLimits(model, request);
  const target = request.target;
  if (target?.kind === "member") {
    const member = checkNamedMember(context, request, target.name);
    return { member, decidedBy: "target", candidates: [member.name], scriptlet: null, explanation: null };
  }
  const listAll = options.scriptlet !== null || options.listAll === true;
  const time = context.timing();
  // Listing every candidate, the ranking reads the usage verdicts the explanation keeps current
  // (one member re-judged per placement, not all of them).
  const fitting = listAll ? currentVerdicts(context.stack, model, request, time).fitting() : undefined;
  const set = context.stack.candidates(model, request, time, listAll ? "all" : "first", fitting);
  const decided = decide(set, request, options.scriptlet, time);
  const planned = (decision: Decision): PlannedDecision => {
    // The default policy took the first candidate without listing the rest: the walk counts them.
    const listed = listAll ? decision.candidates : null;
    // Fields named, not spread: a literal of known shape is cheaper on this per-placement path.
    return {
      member: decision.member,
      decidedBy: decision.decidedBy,
      candidates: decision.candidates,
      scriptlet: decision.scriptlet,
      explanation: explainPlacement(context.stack, model, request, time, listed),
    };
  };
  return thenOrNow(decided, planned);
}

/** The decision record an instance placed by `decision` keeps. */
export function recordOfDecision(
  context: Pick<PlanContext, "model" | "clock">,
  request: PlacementRequest,
  decision: PlannedDecision,
  at: string = context.clock.now().toISOString(),
): PlacementDecisionRecord {
  const target = request.target;
  return decisionRecord({
    at,
    reason: request.reason,
    decidedBy: decision.decidedBy,
    member: decision.member.name,
    target: target === null ? null : target.kind === "group" ? `@${target.name}` : target.name,
    placementGroup: request.groupPolicy,
    candidates: decision.candidates,
    explanation: decision.explanation,
    members: context.model.allMembers().length,
    scriptlet: decision.scriptlet,
  });
}
