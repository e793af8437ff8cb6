/**
 * LXD project limits (`limits.instances`, `limits.containers`,
 * `limits.virtual-machines`, `limits.cpu`, `limits.memory`, `limits.disk`)
 * parsed into numbers the Store re-checks atomically with each claim.
 */
import { PROJECT_SIZE_LIMIT_KEYS } from "@berth/api-types";
import { parseByteSize } from "@berth/resources";
import { invalid } from "../base/errors.js";
import { PROJECT_DIMENSIONS, PROJECT_LIMIT_KEYS } from "../rules/claims/project-usage.js";
import type { ProjectLimits } from "../store/port.js";
import type { ProjectRecord } from "../store/records.js";

/** Limits written as an LXD size (`10GiB`); the others are plain counts. */
const SIZE_KEYS: ReadonlySet<string> = new Set(PROJECT_SIZE_LIMIT_KEYS);

function parseLimit(project: ProjectRecord, key: string, value: string, size: boolean): number {
  if (size) {
    const parsed = parseByteSize(value);
    if (!parsed.ok) {
      throw invalid(`Invalid value for project "${project.name}" config "${key}": ${parsed.error.message}`);
    }
    return parsed.value;
  }
  if (!/^[0-9]+$/.test(value)) {
    throw invalid(
      `Invalid value for project "${project.name}" config "${key}": "${value}" is not an integer`,
    );
  }
  return Number(value);
}

/** Parses one project's limits; a malformed value names the key. */
export function projectLimitsOf(project: ProjectRecord): ProjectLimits {
  const limits: ProjectLimits = {};
  for (const dimension of PROJECT_DIMENSIONS) {
    const key = PROJECT_LIMIT_KEYS[dimension];
    const value = project.config[key];
    if (value === undefined || value === "") continue;
    limits[dimension] = parseLimit(project, key, value, SIZE_KEYS.has(key));
  }
  return limits;
}

/** Aggregate limits an instance must declare when its project sets them (LXD). */
const DECLARED_LIMITS = [
  ["cpu", "limits.cpu"],
  ["memoryBytes", "limits.memory"],
] as const;

/**
 * LXD refuses an instance in a project that limits CPU or memory when the
 * instance does not say how much it uses (it would otherwise count as 0
 * and slip past the limit). A memory share (`limits.memory: 50%`) does not
 * say it either: its size depends on the member, and LXD's project
 * accounting refuses to parse it ("Value can't be a percentage"), answering
 * `Failed parsing "limits.memory" for instance "c1" in project "p"`. In a
 * project without a memory limit a share counts 0 towards the project's
 * memory, as LXD's project state skips it.
 */
export function requireDeclaredLimits(request: {
  readonly name: string;
  readonly projectName: string;
  readonly limits: ProjectLimits;
  readonly expandedConfig: Readonly<Record<string, string>>;
}): void {
  for (const [dimension, key] of DECLARED_LIMITS) {
    if (request.limits[dimension] === undefined) continue;
    const value = request.expandedConfig[key];
    if (value === undefined || value === "") {
      throw invalid(
        `Instance "${request.name}" in project "${request.projectName}" has no "${key}" config, either directly or via a profile`,
      );
    }
    if (key === "limits.memory" && value.endsWith("%")) {
      throw invalid(
        `Failed parsing "${key}" for instance "${request.name}" in project "${request.projectName}"`,
      );
    }
  }
}

export function hasLimits(limits: ProjectLimits): boolean {
  return Object.keys(limits).length > 0;
}

/** Project `restricted.cluster.groups` (comma list, trimmed); applied whenever non-empty, as LXD does. */
export function allowedGroupsOf(project: ProjectRecord): string[] {
  const raw = project.config["restricted.cluster.groups"] ?? "";
  return raw
    .split(",")
    .map((group) => group.trim())
    .filter((group) => group !== "");
}
