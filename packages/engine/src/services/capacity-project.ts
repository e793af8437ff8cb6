/**
 * A project's room under each of its LXD limits for more instances of one
 * shape, counted by the claim rule itself (`exceededLimit`): k more fit
 * under a limit when adding k times the instance's share exceeds nothing.
 */
import { hasLimits, requireDeclaredLimits } from "../expand/project-limits.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import { exceededLimit } from "../rules/claims/project-limits.js";
import {
  PROJECT_DIMENSIONS,
  PROJECT_LIMIT_KEYS,
  type ProjectDimension,
  type ProjectTotals,
  projectUsageOf,
  zeroProjectTotals,
} from "../rules/claims/project-usage.js";

/** One limit the project sets, and how many more instances of the shape it lets in. */
export interface LimitRoom {
  /** The project config key, e.g. `limits.cpu`. */
  key: string;
  /** The limit's value (instances, CPUs or bytes). */
  max: number;
  /** What the project counts against it now, in the same unit. */
  used: number;
  /** What one instance of the shape counts against it. */
  perInstance: number;
  /** More instances of the shape the limit lets in; null when the shape does not count against it. */
  instances: number | null;
  /** An aggregate (CPU, memory, disk): it bounds the size of one instance too, not only the count. */
  aggregate: boolean;
}

/** How many more instances of a shape a project's limits let in, limit by limit. */
export interface ProjectRoom {
  /** Each limit the project sets, with its room. */
  limits: LimitRoom[];
  /** Instances of the shape the project takes before a limit refuses one (Infinity: no limit binds). */
  cap: number;
  /** The config key of the limit that sets `cap` ("" when none binds). */
  limitedBy: string;
}

/** Limits on how many instances, which LXD checks before the instance must declare its aggregates. */
const COUNT_DIMENSIONS: ReadonlySet<ProjectDimension> = new Set([
  "instances",
  "containers",
  "virtualMachines",
]);

function scaled(totals: Readonly<ProjectTotals>, factor: number): ProjectTotals {
  const out = zeroProjectTotals();
  for (const dimension of PROJECT_DIMENSIONS) out[dimension] = totals[dimension] * factor;
  return out;
}

/** The most instances of `perInstance` that `dimension`'s limit lets in on top of `used`, by the rule. */
function roomUnder(
  dimension: ProjectDimension,
  max: number,
  used: Readonly<ProjectTotals>,
  perInstance: Readonly<ProjectTotals>,
): number {
  const limits = { [dimension]: max };
  const fits = (k: number) => exceededLimit(limits, used, scaled(perInstance, k)) === undefined;
  if (!fits(1)) return 0;
  let k = Math.max(1, Math.floor((max - used[dimension]) / perInstance[dimension]));
  while (k > 1 && !fits(k)) k -= 1;
  while (fits(k + 1)) k += 1;
  return k;
}

/**
 * The project's room for more of `request`. Throws what the first create
 * would (LXD's order, decide/plan.ts): an instance that does not declare an
 * aggregate its project limits is refused once the counts leave room.
 */
export function projectRoom(model: ClusterModel, request: PlacementRequest): ProjectRoom {
  const limits = request.limits;
  const room: ProjectRoom = { limits: [], cap: Number.POSITIVE_INFINITY, limitedBy: "" };
  if (!hasLimits(limits)) return room;
  const used = model.projectUsageOf(request.projectName);
  const perInstance = projectUsageOf(request);
  const measure = (dimension: ProjectDimension) => {
    const max = limits[dimension];
    if (max === undefined) return;
    const counts = perInstance[dimension] > 0;
    const instances = counts ? roomUnder(dimension, max, used, perInstance) : null;
    const key = PROJECT_LIMIT_KEYS[dimension];
    const aggregate = !COUNT_DIMENSIONS.has(dimension);
    room.limits.push({
      key,
      max,
      used: used[dimension],
      perInstance: perInstance[dimension],
      instances,
      aggregate,
    });
    if (instances !== null && instances < room.cap) {
      room.cap = instances;
      room.limitedBy = key;
    }
  };
  for (const dimension of PROJECT_DIMENSIONS) if (COUNT_DIMENSIONS.has(dimension)) measure(dimension);
  if (room.cap > 0) requireDeclaredLimits(request);
  for (const dimension of PROJECT_DIMENSIONS) if (!COUNT_DIMENSIONS.has(dimension)) measure(dimension);
  return room;
}
