/**
 * Builds the decision record an instance keeps (store/records.ts
 * `PlacementDecisionRecord`). Every list in it is capped here, so its size
 * does not grow with the cluster or with a chatty scriptlet.
 */
import type { PlacementReason, ScriptletLogLine, ScriptletResult } from "../scriptlet/port.js";
import type {
  DecisionMaker,
  PlacementDecisionRecord,
  PlacementGroupRecord,
  RejectionGroup,
} from "../store/records.js";
import type { PlacementExplanation } from "./explain.js";

/** Candidate names kept, in the order the decision saw them. */
export const LEADING_CANDIDATES = 8;
/** Scriptlet log lines kept. */
export const LOG_LINES_KEPT = 20;
/** Characters kept of one log line. */
export const LOG_LINE_CHARS = 500;

export interface DecidedPlacement {
  at: string;
  reason: PlacementReason;
  decidedBy: DecisionMaker;
  member: string;
  target: string | null;
  placementGroup: PlacementGroupRecord | null;
  /** Candidate names in the order the decision saw them (the chosen one alone on the default fast path). */
  candidates: readonly string[];
  /** Null when no candidate search ran (an explicit member target). */
  explanation: PlacementExplanation | null;
  /** Members in the cluster (used when there is no explanation). */
  members: number;
  scriptlet: ScriptletResult | null;
}

/**
 * The empty log and rejection lists most records keep (a default-policy
 * placement with every member fitting), one frozen array for all of them:
 * records are frozen and shared anyway, and this saves two arrays and two
 * freezes per placement.
 */
const NONE_KEPT: never[] = Object.freeze([]) as never[];

function keptLog(lines: readonly ScriptletLogLine[]): PlacementDecisionRecord["log"] {
  if (lines.length === 0) return NONE_KEPT;
  const kept: PlacementDecisionRecord["log"] = [];
  for (const line of lines.slice(0, LOG_LINES_KEPT)) {
    const message =
      line.message.length > LOG_LINE_CHARS ? `${line.message.slice(0, LOG_LINE_CHARS - 1)}…` : line.message;
    kept.push(Object.freeze({ level: line.level, message }));
  }
  return kept;
}

function frozenGroups(groups: readonly RejectionGroup[]): RejectionGroup[] {
  if (groups.length === 0) return NONE_KEPT;
  return groups.map((group) =>
    Object.freeze({ ...group, members: Object.freeze([...group.members]) as string[] }),
  );
}

function frozen(record: PlacementDecisionRecord): PlacementDecisionRecord {
  Object.freeze(record.log);
  Object.freeze(record.rejections);
  if (record.candidates !== null) {
    Object.freeze(record.candidates.leading);
    Object.freeze(record.candidates);
  }
  if (record.placementGroup !== null) Object.freeze(record.placementGroup);
  if (record.scriptlet !== null) Object.freeze(record.scriptlet);
  return Object.freeze(record);
}

/** The record of a decision the pipeline made (create, evacuation, healing, move). */
export function decisionRecord(placement: DecidedPlacement): PlacementDecisionRecord {
  const explanation = placement.explanation;
  const scriptlet = placement.scriptlet;
  const group = placement.placementGroup;
  return frozen({
    at: placement.at,
    reason: placement.reason,
    decidedBy: placement.decidedBy,
    member: placement.member,
    target: placement.target,
    placementGroup: group === null ? null : { name: group.name, policy: group.policy, rigor: group.rigor },
    members: explanation?.members ?? placement.members,
    candidates:
      explanation === null
        ? null
        : {
            count: explanation.candidateCount,
            leading: placement.candidates.slice(0, LEADING_CANDIDATES),
          },
    rejections: explanation === null ? NONE_KEPT : frozenGroups(explanation.rejections),
    log: scriptlet === null ? NONE_KEPT : keptLog(scriptlet.logs),
    logDropped: Math.max(0, (scriptlet?.logs.length ?? 0) - LOG_LINES_KEPT),
    scriptlet: scriptlet === null ? null : { steps: scriptlet.cost.steps, ms: scriptlet.cost.ms },
  });
}

/**
 * The record of a move no candidate search chose: the rebalancer's plan
 * (`rebalance`) or a restore to the member the instance was evacuated
 * from (`restore`).
 */
export function movedDecision(
  decidedBy: "rebalance" | "restore",
  member: string,
  at: string,
  members: number,
): PlacementDecisionRecord {
  return frozen({
    at,
    reason: decidedBy,
    decidedBy,
    member,
    target: null,
    placementGroup: null,
    members,
    candidates: null,
    rejections: NONE_KEPT,
    log: NONE_KEPT,
    logDropped: 0,
    scriptlet: null,
  });
}
