/**
 * Step 4 of a placement, its last: choose among the ranked candidates. The
 * scriptlet (if set) runs with the request and the ordered candidate list
 * and may set_target or reject; otherwise, or when it leaves the choice
 * open, the first candidate is taken (the stack's ranking: fewest
 * instances, ties in join order, refined by a placement group's policy).
 */

import { EngineError, insufficientCapacity, notFound } from "../base/errors.js";
import { thenOrNow } from "../base/then-or-now.js";
import type { CandidateSet } from "../candidates/candidate-set.js";
import type { Timing } from "../candidates/filter.js";
import { describeRejections, summarizeRejections } from "../candidates/rejection.js";
import { instanceResourcesOn, memberMemory } from "../expand/member-demand.js";
import { type PlacementRequest, subjectOf } from "../expand/request.js";
import type { MemberState } from "../model/member-state.js";
import type {
  InstancePlacementView,
  ScriptletCall,
  ScriptletClusterView,
  ScriptletLimits,
  ScriptletLogger,
  ScriptletResult,
  ScriptletRunner,
} from "../scriptlet/port.js";
import { memberView, placementView } from "../views/views.js";

/**
 * Who chose the member of a placement: the caller's target, the scriptlet's `set_target`, or the
 * default policy.
 */
export type DecidedBy = "target" | "scriptlet" | "default";

/** A placement decision before its claim: the member chosen and how. */
export interface Decision {
  /** The chosen member, as the model holds it. */
  member: MemberState;
  /** Who chose it. */
  decidedBy: DecidedBy;
  /** Candidate names in the order the scriptlet saw them. */
  candidates: string[];
  /** The scriptlet's run, when one ran. */
  scriptlet: ScriptletResult | null;
}

/** A scriptlet ready to run: the configured one (its configuration version) or a proposed one (`version` null). */
export interface ScriptletSetup {
  host: ScriptletRunner;
  version: number | null;
  source: string;
  limits: ScriptletLimits;
  cluster: ScriptletClusterView;
  logger?: ScriptletLogger;
}

/** LXD's wording, plus Berth's per-reason breakdown. */
export function noCandidateError(set: CandidateSet, subject: string): EngineError {
  const summaries = summarizeRejections(set.rejected);
  const why = describeRejections(summaries);
  const message =
    summaries.length === 0
      ? `No suitable cluster member could be found for ${subject}: the cluster has no members`
      : `No suitable cluster member could be found for ${subject}: ${why}`;
  const details = {
    rejections: summaries.map(({ code, count, members, text, capacity }) => ({
      code,
      count,
      members,
      text,
      capacity,
    })),
  };
  return summaries.some((summary) => summary.capacity)
    ? insufficientCapacity(message, details)
    : notFound(message, details);
}

/**
 * What `get_instance_resources()` answers: the request's own numbers, or,
 * for a memory share, the share of the candidate with the most memory,
 * and per candidate (`get_instance_resources(member_name)`) the share of
 * its own (expand/member-demand.ts).
 */
function scriptletResources(
  request: PlacementRequest,
  candidates: readonly MemberState[],
  candidate: ((name: string) => MemberState | undefined) | undefined,
): Pick<ScriptletCall, "instanceResources" | "instanceResourcesOn"> {
  if (request.memoryShare === null) return { instanceResources: request.instanceResources };
  let largest = candidates[0]!;
  let largestMemory = memberMemory(largest.record) ?? 0;
  for (const member of candidates) {
    const memory = memberMemory(member.record) ?? 0;
    if (memory > largestMemory) {
      largest = member;
      largestMemory = memory;
    }
  }
  const find = candidate ?? ((name: string) => candidates.find((member) => member.name === name));
  return {
    instanceResources: instanceResourcesOn(request, largest.record),
    instanceResourcesOn: (name) => {
      const member = find(name);
      return member === undefined ? undefined : instanceResourcesOn(request, member.record);
    },
  };
}

/**
 * `view`: what the scriptlet sees as `request` (by default the request's
 * own view, see views.ts placementView; built only when a scriptlet runs).
 * Without a scriptlet the answer is synchronous: the default policy's
 * placements (most of them) then take no promise hop here.
 */
export function decide(
  set: CandidateSet,
  request: PlacementRequest,
  scriptlet: ScriptletSetup | null,
  clock: Timing,
  view?: InstancePlacementView,
): Decision | Promise<Decision> {
  const { candidates } = set;
  if (candidates.length === 0) throw noCandidateError(set, subjectOf(request));
  // The stack gathered names and views as it listed the candidates (one walk over 10,000 members, not three).
  const names = set.listing?.names ?? candidates.map((member) => member.name);
  if (scriptlet === null) {
    return { member: candidates[0]!, decidedBy: "default", candidates: names, scriptlet: null };
  }
  return decideByScriptlet(set, names, request, scriptlet, clock, view);
}

/**
 * The scriptlet's decision: synchronous when its runner answers at once (the in-process runner),
 * a promise when the run ends elsewhere (a worker thread).
 */
function decideByScriptlet(
  set: CandidateSet,
  names: string[],
  request: PlacementRequest,
  scriptlet: ScriptletSetup,
  clock: Timing,
  view: InstancePlacementView | undefined,
): Decision | Promise<Decision> {
  const { candidates, listing } = set;
  const views =
    listing?.views ?? candidates.map((member) => memberView(member, clock.nowMs, clock.offlineThresholdMs));
  const result = scriptlet.host.run(
    scriptlet.version,
    scriptlet.source,
    {
      request: view ?? placementView(request),
      candidates: views,
      ...(listing !== undefined ? { isCandidate: listing.isCandidate, candidateState: listing.stateAt } : {}),
      ...scriptletResources(request, candidates, listing?.candidate),
      cluster: scriptlet.cluster,
      limits: scriptlet.limits,
    },
    scriptlet.logger,
  );
  return thenOrNow(result, (ran) => decisionOf(set, names, request, ran));
}

/** What the scriptlet's run decided: its target, the default policy's choice, or its refusal. */
function decisionOf(
  set: CandidateSet,
  names: string[],
  request: PlacementRequest,
  result: ScriptletResult,
): Decision {
  const { candidates, listing } = set;
  const outcome = result.outcome;
  switch (outcome.kind) {
    case "rejected":
      throw new EngineError("scriptlet", outcome.message, {
        scriptletStage: outcome.atLoad === true ? "load" : "run",
        // The project the placement was for: a failed run is warned about in that project.
        project: request.projectName,
        logs: result.logs,
        cost: result.cost,
        candidates: names,
      });
    case "target": {
      // The listing answers for the set listed last; a dry run may have listed another while the
      // scriptlet ran (in a worker), so a miss looks the name up in this set's own list.
      const chosen =
        listing?.candidate(outcome.member) ?? candidates.find((member) => member.name === outcome.member);
      if (chosen === undefined) {
        // The host validates set_target against the candidates; reaching here is a host bug.
        throw new EngineError(
          "scriptlet",
          `Failed instance placement scriptlet: Failed to run: Invalid member name: ${outcome.member}`,
          { scriptletStage: "run", project: request.projectName },
        );
      }
      return { member: chosen, decidedBy: "scriptlet", candidates: names, scriptlet: result };
    }
    case "default":
      return { member: candidates[0]!, decidedBy: "default", candidates: names, scriptlet: result };
  }
}
