/**
 * Steps 3 and 4 for one request, synchronously against the model: project
 * limits, then a member target checked through the stack, or the stack's
 * ranked candidates handed to the decision. This is what a claim that lost
 * a race re-runs.
 */
import type { EngineRuntime } from "../engine/runtime.js";
import { insufficientCapacity, invalid, notFound } from "../errors.js";
import { hasLimits } from "../expand/project-limits.js";
import type { ClusterModel } from "../model/cluster-model.js";
import { type Decision, decide, type ScriptletSetup } from "./decide.js";
import { type PlacementRequest, subjectOf } from "./request.js";

/** Model-level project limit check (the store re-checks atomically). */
function checkProjectLimits(model: ClusterModel, request: PlacementRequest): void {
  const limits = request.limits;
  // Most projects have no limits: skip building the checks (bulk plans this per instance).
  if (!hasLimits(limits)) return;
  const usage = model.projectUsageOf(request.projectName);
  const isVm = request.type === "virtual-machine";
  const checks: [keyof typeof limits, string, number, number][] = [
    ["instances", "limits.instances", usage.instances, 1],
    ["containers", "limits.containers", usage.containers, isVm ? 0 : 1],
    ["virtualMachines", "limits.virtual-machines", usage.virtualMachines, isVm ? 1 : 0],
    ["cpu", "limits.cpu", usage.cpu, request.limitsUsage.cpu],
    ["memoryBytes", "limits.memory", usage.memoryBytes, request.limitsUsage.memoryBytes],
    ["diskBytes", "limits.disk", usage.diskBytes, request.limitsUsage.diskBytes],
  ];
  for (const [field, key, current, adding] of checks) {
    const max = limits[field];
    if (max === undefined || adding === 0) continue;
    if (current + adding > max) {
      throw insufficientCapacity(
        `Project "${request.projectName}" would exceed ${key} (${current + adding} > ${max})`,
        {
          reason: "project_limit",
          project: request.projectName,
          limit: field,
          value: current + adding,
          max,
        },
      );
    }
  }
}

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

export function plan(runtime: EngineRuntime, request: PlacementRequest, options: PlanOptions): Decision {
  const model = runtime.model;
  // Moves and evacuations add no instance to the project.
  if (request.reason === "new") checkProjectLimits(model, request);
  const time = runtime.timing();
  const target = request.target;
  if (target?.kind === "member") {
    const member = model.member(target.name);
    if (member === undefined) throw notFound(`Cluster member "${target.name}" not found`);
    const why = runtime.stack.check(member, request, time, "target");
    if (why !== undefined) {
      const message = `Cluster member "${target.name}" can't take ${subjectOf(request)}: it ${why.one}`;
      throw why.capacity ? insufficientCapacity(message) : invalid(message);
    }
    return { member, decidedBy: "target", candidates: [member.name], scriptlet: null };
  }
  const listAll = options.scriptlet !== null || options.listAll === true;
  const set = runtime.stack.candidates(model, request, time, listAll ? "all" : "first");
  return decide(set, request, options.scriptlet, time);
}
