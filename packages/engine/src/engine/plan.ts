/**
 * Plans one placement against the model (synchronous: steps 3 and 4), and
 * turns a decision into the instance record a claim writes.
 */
import { exceededLimit } from "../claim-rules/project-limits.js";
import { PROJECT_LIMIT_KEYS, projectUsageOf } from "../claim-rules/project-usage.js";
import { insufficientCapacity, invalid, notFound } from "../errors.js";
import { hasLimits } from "../expand/project-limits.js";
import type { ClusterModel, PendingPlacement } from "../model/cluster-model.js";
import { findCandidates, firstRejection, leastLoadedCandidate } from "../pipeline/candidates.js";
import type { PlacementContext } from "../pipeline/context.js";
import { type Decision, decide, noCandidateError, type ScriptletSetup } from "../pipeline/decide.js";
import { TARGET_FILTERS } from "../pipeline/filters.js";
import { placementView } from "../pipeline/views.js";
import type { PlacementReason, ScriptletLogger } from "../scriptlet/port.js";
import { allocationsOf } from "../store/allocations.js";
import type { NewInstance } from "../store/port.js";
import type { InstanceRecord } from "../store/records.js";
import { ModelClusterView, needsInstanceList } from "./cluster-view.js";
import type { Prepared } from "./prepare.js";
import type { EngineRuntime } from "./runtime.js";

export function subjectOf(prepared: Prepared): string {
  const name = prepared.request.name === "" ? prepared.id : prepared.request.name;
  return `instance "${name}" in project "${prepared.project.name}"`;
}

function contextOf(
  runtime: EngineRuntime,
  prepared: Prepared,
  reason: PlacementReason,
  excluded: ReadonlySet<string>,
): PlacementContext {
  return {
    reason,
    project: prepared.project,
    request: prepared.request,
    targetGroup: prepared.target?.kind === "group" ? prepared.target.name : null,
    allowedGroups: prepared.allowedGroups,
    excluded,
    placementGroup: prepared.placementGroup,
    nowMs: runtime.nowMs(),
    offlineThresholdMs: runtime.offlineThresholdMs(),
  };
}

/** Model-level project limit check (the store re-checks atomically, with the same rule). */
function checkProjectLimits(model: ClusterModel, prepared: Prepared): void {
  const limits = prepared.limits;
  // Most projects have no limits: skip building the checks (bulk plans this per instance).
  if (!hasLimits(limits)) return;
  const project = prepared.project.name;
  const excess = exceededLimit(limits, model.projectUsageOf(project), projectUsageOf(prepared.request));
  if (excess === undefined) return;
  const { limit, value, max } = excess;
  throw insufficientCapacity(
    `Project "${project}" would exceed ${PROJECT_LIMIT_KEYS[limit]} (${value} > ${max})`,
    {
      reason: "project_limit",
      project,
      limit,
      value,
      max,
    },
  );
}

export interface PlanOptions {
  reason: PlacementReason;
  excluded?: ReadonlySet<string>;
  /** Scriptlet to consult; null when none is configured or the flow skips it. */
  scriptlet: ScriptletSetup | null;
  /** Skip the model-level project limit check (moves do not add instances). */
  skipProjectLimits?: boolean;
  /**
   * List every candidate in order (dry runs). Without a scriptlet or placement
   * group the default policy otherwise picks without building the list, and
   * `Decision.candidates` names only the chosen member.
   */
  fullCandidates?: boolean;
}

export function plan(runtime: EngineRuntime, prepared: Prepared, options: PlanOptions): Decision {
  const model = runtime.model;
  if (options.skipProjectLimits !== true) checkProjectLimits(model, prepared);
  const context = contextOf(runtime, prepared, options.reason, options.excluded ?? new Set());
  const target = prepared.target;
  if (target?.kind === "member") {
    const member = model.member(target.name);
    if (member === undefined) throw notFound(`Cluster member "${target.name}" not found`);
    const why = firstRejection(member, context, TARGET_FILTERS);
    if (why !== undefined) {
      const message = `Cluster member "${target.name}" can't take ${subjectOf(prepared)}: it ${why.one}`;
      throw why.capacity ? insufficientCapacity(message) : invalid(message);
    }
    return { member, decidedBy: "target", candidates: [member.name], scriptlet: null };
  }
  // Fast path for the default policy: no candidate list to build or sort.
  if (options.scriptlet === null && prepared.placementGroup === null && options.fullCandidates !== true) {
    const member = leastLoadedCandidate(model, context);
    if (member === undefined) throw noCandidateError(findCandidates(model, context), subjectOf(prepared));
    return { member, decidedBy: "default", candidates: [member.name], scriptlet: null };
  }
  const set = findCandidates(model, context);
  const view = placementView(prepared.request, options.reason, prepared.project.name, {
    architecture: prepared.architecture,
    description: prepared.description,
    ephemeral: prepared.ephemeral,
    ...(prepared.source !== null ? { source: prepared.source } : {}),
  });
  return decide(set, subjectOf(prepared), view, prepared.request.instanceResources, options.scriptlet, {
    nowMs: context.nowMs,
    offlineThresholdMs: context.offlineThresholdMs,
  });
}

/**
 * The scriptlet setup for this operation, or null when none is configured.
 * `proposedSource` (a dry run's `scriptletSource`, already validated) runs
 * instead of the configured scriptlet; "" means no scriptlet.
 */
export async function scriptletSetup(
  runtime: EngineRuntime,
  proposedSource?: string,
): Promise<ScriptletSetup | null> {
  const source = proposedSource ?? runtime.effective.scriptlet;
  if (source === "") return null;
  const prefetched = needsInstanceList(source) ? await runtime.store.listInstances() : null;
  const logger: ScriptletLogger = {
    log: (line) =>
      runtime.logger.log(line.level, `Instance placement scriptlet: ${line.message}`, {
        instance: line.instance,
        project: line.project,
        reason: line.reason,
      }),
  };
  const host = runtime.scriptletHost;
  return {
    // Counts every run (and its steps) for the metrics endpoint.
    host: {
      validate: (text) => host.validate(text),
      run: (version, text, call, log) => {
        const result = host.run(version, text, call, log);
        runtime.metrics.scriptletRan(result.outcome.kind, result.cost.steps);
        return result;
      },
    },
    // A proposed scriptlet is not a configuration version: the host caches it by source.
    version: proposedSource === undefined ? runtime.config.version : null,
    source,
    limits: runtime.effective.scriptletLimits,
    cluster: new ModelClusterView(runtime.model, runtime.timing(), prefetched),
    logger,
  };
}

export function pendingOf(prepared: Prepared, member: string): PendingPlacement {
  return {
    member,
    project: prepared.project.name,
    resources: prepared.request.resources,
    placementGroup: prepared.request.placementGroup,
  };
}

/** The record a create claim writes for a decided placement. */
export function newRecord(
  runtime: EngineRuntime,
  prepared: Prepared,
  member: string,
  createdAt: string = runtime.clock.now().toISOString(),
): NewInstance {
  const request = prepared.request;
  const memberArch = runtime.model.member(member)?.record.architecture ?? "";
  return {
    id: prepared.id,
    project: prepared.project.name,
    name: request.name,
    type: request.type,
    location: member,
    forthcoming: prepared.forthcoming,
    architecture:
      prepared.architecture !== "" ? prepared.architecture : (request.architectures?.[0] ?? memberArch),
    description: prepared.description,
    ephemeral: prepared.ephemeral,
    profiles: request.profiles,
    config: request.config,
    devices: request.devices,
    instanceType: request.instanceType,
    flavor: request.flavor,
    source: prepared.source,
    placementGroup: request.placementGroup,
    origin: null,
    createdAt,
    allocations: allocationsOf(member, request.resources, prepared.forthcoming ? "forthcoming" : "used"),
    limitsUsage: request.limitsUsage,
  };
}

/** A stored instance moved to `member` (allocations follow it). */
export function movedRecord(record: InstanceRecord, member: string, origin: string | null): NewInstance {
  const { revision: _revision, ...rest } = record;
  return {
    ...rest,
    location: member,
    origin,
    allocations: record.allocations.map((row) => ({ ...row, member })),
  };
}
