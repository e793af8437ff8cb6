/**
 * Hand-written checks for the request bodies berthd receives most, in their
 * common shape: each returns exactly what the api-types zod schema would
 * return for a body it fully checks, or undefined for anything else, which
 * then goes through the schema (so every refusal keeps the schema's text).
 * A steady-state create over HTTP spent about 5 µs of its CPU in zod's parse
 * of `{"name": ..., "config": {...}}` and the null-stripping copy before it;
 * this check takes well under 1 µs (perf-http-3,
 * docs/performance/http-and-placement-api.md).
 */
import {
  type ApiSchemaName,
  INSTANCE_NAME_PATTERN,
  type InstancesPost,
  PLACEMENT_GROUP_CONFIG_KEY,
} from "@berth/api-types";

/** A config map of strings, as `ConfigMapSchema` reads it, or undefined when the schema must judge it. */
function plainConfig(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  for (const key of Object.keys(value)) {
    // "__proto__" is an own key of JSON.parse's output that an assignment would not copy; the
    // placement group's name has its own rule (InstanceConfigSchema).
    if (key === "__proto__" || key === PLACEMENT_GROUP_CONFIG_KEY) return undefined;
    if (typeof (value as Record<string, unknown>)[key] !== "string") return undefined;
  }
  return value as Record<string, string>;
}

/**
 * `InstancesPost` with no other field than `name` and `config` (what LXD's
 * client and the benches send for a create). The result's fields come in
 * the schema's order (`config` before `name`), as zod builds its output.
 */
export function commonInstancesPost(decoded: unknown): InstancesPost | undefined {
  if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded)) return undefined;
  let name: string | undefined;
  let config: Record<string, string> | undefined;
  for (const key of Object.keys(decoded)) {
    const value = (decoded as Record<string, unknown>)[key];
    if (key === "name") {
      if (typeof value !== "string" || !INSTANCE_NAME_PATTERN.test(value)) return undefined;
      name = value;
    } else if (key === "config") {
      config = plainConfig(value);
      if (config === undefined) return undefined;
    } else return undefined;
  }
  const body: InstancesPost = {};
  if (config !== undefined) body.config = config;
  if (name !== undefined) body.name = name;
  return body;
}

/** The bodies that have a check of their common shape, by api-types schema name. */
export const commonBodies: Partial<Record<ApiSchemaName, (decoded: unknown) => unknown>> = {
  InstancesPost: commonInstancesPost,
};
