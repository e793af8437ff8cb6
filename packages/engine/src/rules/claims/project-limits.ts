/**
 * LXD project limits, checked on growth only: a claim may always shrink or
 * keep a project's usage, even above a limit lowered since.
 */
import { internal } from "../../base/errors.js";
import type { ProjectLimits } from "../../store/port.js";
import { projectLimitFailure } from "./failures.js";
import { type LimitExcess, PROJECT_DIMENSIONS, type ProjectTotals } from "./project-usage.js";

/**
 * The first limited dimension (in `PROJECT_DIMENSIONS` order) that `change`
 * grows beyond its limit on top of `current`, or undefined. Shared by the
 * claim rules and the engine's pre-check against its model.
 */
export function exceededLimit(
  limits: ProjectLimits,
  current: Readonly<ProjectTotals>,
  change: Readonly<ProjectTotals>,
): LimitExcess | undefined {
  for (const dimension of PROJECT_DIMENSIONS) {
    const max = limits[dimension];
    if (max === undefined || change[dimension] <= 0) continue;
    const value = current[dimension] + change[dimension];
    if (value > max) return { limit: dimension, value, max };
  }
  return undefined;
}

/**
 * Projects of `limits` whose change grows a limited dimension: only their
 * counters need reading (and, in PostgreSQL, locking) for the claim.
 */
export function limitedProjects(
  limits: Readonly<Record<string, ProjectLimits>>,
  changes: ReadonlyMap<string, ProjectTotals>,
): string[] {
  const out: string[] = [];
  for (const [project, projectLimits] of Object.entries(limits)) {
    const change = changes.get(project);
    if (change === undefined) continue;
    if (PROJECT_DIMENSIONS.some((d) => projectLimits[d] !== undefined && change[d] > 0)) out.push(project);
  }
  return out;
}

/**
 * Refuses the claim when it grows a project beyond a limit. `totals` holds
 * the counters before the claim of every project `limitedProjects` names;
 * a Store that did not read one has a bug, reported as such.
 */
export function checkProjectLimits(
  limits: Readonly<Record<string, ProjectLimits>>,
  changes: ReadonlyMap<string, ProjectTotals>,
  totals: ReadonlyMap<string, ProjectTotals>,
): void {
  for (const project of limitedProjects(limits, changes)) {
    const current = totals.get(project);
    if (current === undefined) {
      throw internal(`The limit counters of project "${project}" were not read for this claim`);
    }
    const excess = exceededLimit(limits[project]!, current, changes.get(project)!);
    if (excess !== undefined) throw projectLimitFailure(project, excess);
  }
}
