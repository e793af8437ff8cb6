/**
 * LXD project limits (`limits.instances`, `limits.containers`,
 * `limits.virtual-machines`, `limits.cpu`, `limits.memory`, `limits.disk`)
 * parsed into numbers the Store re-checks atomically with each claim.
 */
import { parseByteSize } from "@berth/resources";
import { invalid } from "../errors.js";
import type { ProjectLimits } from "../store/port.js";
import type { ProjectRecord } from "../store/records.js";

const COUNT_KEYS = {
  "limits.instances": "instances",
  "limits.containers": "containers",
  "limits.virtual-machines": "virtualMachines",
  "limits.cpu": "cpu",
} as const;

const SIZE_KEYS = {
  "limits.memory": "memoryBytes",
  "limits.disk": "diskBytes",
} as const;

/** Parses one project's limits; a malformed value names the key. */
export function projectLimitsOf(project: ProjectRecord): ProjectLimits {
  const limits: ProjectLimits = {};
  for (const [key, field] of Object.entries(COUNT_KEYS)) {
    const value = project.config[key];
    if (value === undefined || value === "") continue;
    if (!/^[0-9]+$/.test(value)) {
      throw invalid(
        `Invalid value for project "${project.name}" config "${key}": "${value}" is not an integer`,
      );
    }
    limits[field] = Number(value);
  }
  for (const [key, field] of Object.entries(SIZE_KEYS)) {
    const value = project.config[key];
    if (value === undefined || value === "") continue;
    const parsed = parseByteSize(value);
    if (!parsed.ok) {
      throw invalid(`Invalid value for project "${project.name}" config "${key}": ${parsed.error.message}`);
    }
    limits[field] = parsed.value;
  }
  return limits;
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
