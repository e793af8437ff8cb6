/**
 * What a placement group's config map means, in LXD 6.6's words
 * (lxd/placement_groups.go, placementGroupValidateConfig): `policy` and
 * `rigor` are required, `user.*` keys are free-form, any other key is
 * refused. Berth adds `topology` (a member topology key, `failure_domain`
 * included: the group counts per value of it instead of per member).
 *
 * Bodies in Berth's earlier format carry `policy` and `rigor` as top-level
 * fields: they are merged into the map here, a value given both ways must
 * agree, and a create in that format without any `config` keeps its old
 * default rigor `strict`.
 */
import {
  FAILURE_DOMAIN_TOPOLOGY,
  isTopologyName,
  PLACEMENT_POLICIES,
  PLACEMENT_RIGORS,
  type PlacementPolicy,
  type PlacementRigor,
  TOPOLOGY_NAME_RULE,
} from "@berth/api-types";
import { invalid } from "../../base/errors.js";
import type { PlacementGroupRecord } from "../../store/records.js";

/** The group config key naming the topology key the group counts by. */
export const PLACEMENT_GROUP_TOPOLOGY = "topology";

/** A placement group body as any protocol gives it: LXD's `config` and/or the earlier top-level fields. */
export interface PlacementGroupSettingsInput {
  /** LXD's `config` map: `policy`, `rigor`, `topology`, `user.*` keys. */
  config?: Readonly<Record<string, string>>;
  /**
   * Berth's earlier top-level policy (`spread` or `compact`); must agree with `config.policy` when
   * both are given.
   */
  policy?: string;
  /**
   * Berth's earlier top-level rigor (`strict` or `permissive`); must agree with `config.rigor` when
   * both are given.
   */
  rigor?: string;
}

/** What the record keeps: policy and rigor as fields, the other keys (`user.*`, `topology`) in `config`. */
export type PlacementGroupSettings = Pick<PlacementGroupRecord, "policy" | "rigor" | "config">;

/** The group's whole config map as LXD shows it (`policy` and `rigor` included). */
export function placementGroupConfigOf(group: PlacementGroupSettings): Record<string, string> {
  return { policy: group.policy, rigor: group.rigor, ...group.config };
}

/** The topology key a group counts by, or null when it counts per member. */
export function placementGroupTopology(group: Pick<PlacementGroupRecord, "config">): string | null {
  return group.config[PLACEMENT_GROUP_TOPOLOGY] ?? null;
}

/**
 * `config` with the top-level fields merged in. A top-level field that
 * disagrees with the same key in `config` is refused: which one the caller
 * meant cannot be told.
 */
export function withLegacyFields(
  config: Readonly<Record<string, string>>,
  input: PlacementGroupSettingsInput,
): Record<string, string> {
  const merged = { ...config };
  for (const key of ["policy", "rigor"] as const) {
    const top = input[key];
    if (top === undefined) continue;
    const inConfig = input.config?.[key];
    if (inConfig !== undefined && inConfig !== "" && inConfig !== top) {
      throw invalid(
        `Placement group key "${key}" given twice with different values: "${top}" as a field, "${inConfig}" in config`,
      );
    }
    merged[key] = top;
  }
  return merged;
}

/** A create's settings: LXD's map, the earlier fields merged in (rigor `strict` when only they are given). */
export function placementGroupSettingsOf(input: PlacementGroupSettingsInput): PlacementGroupSettings {
  const merged = withLegacyFields(input.config ?? {}, input);
  if (input.config === undefined && input.policy !== undefined && merged.rigor === undefined) {
    merged.rigor = "strict";
  }
  return checkedSettings(merged);
}

/** Validates a whole map (LXD's texts) and splits it into the record's fields. */
export function checkedSettings(config: Readonly<Record<string, string>>): PlacementGroupSettings {
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key.startsWith("user.")) {
      extra[key] = value;
      continue;
    }
    const problem = valueProblem(key, value);
    if (problem === "unknown") throw invalid(`Invalid placement group key "${key}"`);
    if (problem !== undefined) throw invalid(`Invalid placement group key "${key}" value${problem}`);
    if (key === PLACEMENT_GROUP_TOPOLOGY) extra[key] = value;
  }
  for (const key of ["policy", "rigor"]) {
    if (config[key] === undefined) throw invalid(`Missing required config key: "${key}"`);
  }
  return {
    policy: config.policy as PlacementPolicy,
    rigor: config.rigor as PlacementRigor,
    config: extra,
  };
}

/** "unknown" for a key LXD does not know, a suffix for the error when the value is bad ("" when LXD says no more). */
function valueProblem(key: string, value: string): string | undefined {
  switch (key) {
    case "policy":
      return (PLACEMENT_POLICIES as readonly string[]).includes(value) ? undefined : "";
    case "rigor":
      return (PLACEMENT_RIGORS as readonly string[]).includes(value) ? undefined : "";
    case PLACEMENT_GROUP_TOPOLOGY:
      return value === FAILURE_DOMAIN_TOPOLOGY || isTopologyName(value)
        ? undefined
        : `: "${value}" is neither "${FAILURE_DOMAIN_TOPOLOGY}" nor a topology name (${TOPOLOGY_NAME_RULE})`;
    default:
      return "unknown";
  }
}
