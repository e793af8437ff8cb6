import { type ExtraSpecs, type ParsedGroup, parseExtraSpecs } from "./extra-specs.js";
import { err, ok, type Result } from "./result.js";

/** One request group after Nova's build (zeros stripped). Suffix "" is the unsuffixed group. */
export interface RequestGroup {
  readonly suffix: string;
  readonly resources: Readonly<Record<string, number>>;
  readonly required_traits: readonly string[];
  readonly forbidden_traits: readonly string[];
}

/**
 * What an instance asks of one member. `resources` and the trait lists are
 * every group merged (amounts summed), because a Berth instance lands on a
 * single member: all groups must fit there together.
 */
export interface ResourceRequest {
  readonly groups: readonly RequestGroup[];
  readonly group_policy: "none" | "isolate" | undefined;
  readonly resources: Readonly<Record<string, number>>;
  readonly required_traits: readonly string[];
  readonly forbidden_traits: readonly string[];
  /** Extra specs Nova would log and ignore. */
  readonly warnings: readonly string[];
}

/** The standard amounts an instance or flavor brings before extra specs apply. */
export interface BaseAmounts {
  readonly VCPU: number;
  readonly MEMORY_MB: number;
  readonly DISK_GB: number;
}

export type ResourceRequestError =
  | { readonly kind: "group-policy-required"; readonly message: string }
  | { readonly kind: "isolate-on-one-member"; readonly suffixes: readonly string[]; readonly message: string }
  | { readonly kind: "conflicting-traits"; readonly traits: readonly string[]; readonly message: string };

function mentioned(groups: Map<string, ParsedGroup>, resourceClass: string): boolean {
  for (const group of groups.values()) {
    if (resourceClass in group.resources) return true;
  }
  return false;
}

function sortedRecord(record: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as number;
  return out;
}

function compareSuffixes(a: string, b: string): number {
  if (a === "") return -1;
  if (b === "") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds a request in Nova's order (ResourceRequest.from_request_spec):
 * 1. extra specs: `resources[N]:CLASS=N` and `trait[N]:NAME=required|forbidden`
 *    per group, later keys overwriting;
 * 2. base amounts go to the unsuffixed group only for classes no group
 *    mentions (VCPU is also suppressed by PCPU; DISK_GB only when non-zero);
 * 3. every zero amount is dropped, and groups left with nothing are dropped;
 * 4. two or more suffixed groups need a group_policy (Placement's 400), and
 *    `isolate` with two or more can't be met by one member.
 */
export function buildRequest(
  base: BaseAmounts,
  extraSpecs: ExtraSpecs,
): Result<ResourceRequest, ResourceRequestError> {
  const parsed = parseExtraSpecs(extraSpecs);
  const groups = parsed.groups;
  const unsuffixedAdditions: Record<string, number> = {};
  if (!mentioned(groups, "VCPU") && !mentioned(groups, "PCPU")) unsuffixedAdditions.VCPU = base.VCPU;
  if (!mentioned(groups, "MEMORY_MB")) unsuffixedAdditions.MEMORY_MB = base.MEMORY_MB;
  if (base.DISK_GB !== 0 && !mentioned(groups, "DISK_GB")) unsuffixedAdditions.DISK_GB = base.DISK_GB;

  const built: RequestGroup[] = [];
  const suffixes = new Set<string>(groups.keys());
  suffixes.add("");
  for (const suffix of [...suffixes].sort(compareSuffixes)) {
    const group = groups.get(suffix);
    const resources: Record<string, number> = {};
    const raw = suffix === "" ? { ...group?.resources, ...unsuffixedAdditions } : (group?.resources ?? {});
    for (const resourceClass of Object.keys(raw)) {
      const amount = raw[resourceClass] as number;
      if (amount !== 0) resources[resourceClass] = amount;
    }
    const required = [...(group?.required_traits ?? [])].sort();
    const forbidden = [...(group?.forbidden_traits ?? [])].sort();
    if (Object.keys(resources).length === 0 && required.length === 0 && forbidden.length === 0) continue;
    built.push({
      suffix,
      resources: sortedRecord(resources),
      required_traits: required,
      forbidden_traits: forbidden,
    });
  }

  const suffixed = built.filter((group) => group.suffix !== "").map((group) => group.suffix);
  if (suffixed.length >= 2 && parsed.group_policy === undefined) {
    return err({
      kind: "group-policy-required",
      message:
        'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
    });
  }
  if (suffixed.length >= 2 && parsed.group_policy === "isolate") {
    return err({
      kind: "isolate-on-one-member",
      suffixes: suffixed,
      message:
        `group_policy=isolate asks for request groups ${suffixed.join(", ")} on different providers, ` +
        "but an instance is placed on a single member, which can't satisfy that.",
    });
  }

  const merged: Record<string, number> = {};
  const required = new Set<string>();
  const forbidden = new Set<string>();
  for (const group of built) {
    for (const resourceClass of Object.keys(group.resources)) {
      merged[resourceClass] = (merged[resourceClass] ?? 0) + (group.resources[resourceClass] as number);
    }
    for (const trait of group.required_traits) required.add(trait);
    for (const trait of group.forbidden_traits) forbidden.add(trait);
  }
  const conflicts = [...required].filter((trait) => forbidden.has(trait)).sort();
  if (conflicts.length > 0) {
    return err({
      kind: "conflicting-traits",
      traits: conflicts,
      message: `Conflicting required and forbidden traits found: ${conflicts.join(", ")}`,
    });
  }
  return ok({
    groups: built,
    group_policy: parsed.group_policy,
    resources: sortedRecord(merged),
    required_traits: [...required].sort(),
    forbidden_traits: [...forbidden].sort(),
    warnings: parsed.warnings,
  });
}

/**
 * The Placement query string Nova would send for a request
 * (`to_querystring`): parameters sorted, `resources[S]=CLASS:N,...` sorted,
 * `required[S]=T1,T2,!F1` (required, then forbidden), plus `limit` and
 * `group_policy`. Values are left unencoded so they read like the spec.
 */
export function toPlacementQuery(request: ResourceRequest, limit?: number): string {
  const params: [string, string][] = [];
  for (const group of request.groups) {
    const resources = Object.keys(group.resources)
      .map((name) => `${name}:${group.resources[name]}`)
      .join(",");
    if (resources !== "") params.push([`resources${group.suffix}`, resources]);
    const traits = [...group.required_traits, ...group.forbidden_traits.map((trait) => `!${trait}`)];
    if (traits.length > 0) params.push([`required${group.suffix}`, traits.join(",")]);
  }
  if (limit !== undefined) params.push(["limit", String(limit)]);
  if (request.group_policy !== undefined) params.push(["group_policy", request.group_policy]);
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return params.map(([key, value]) => `${key}=${value}`).join("&");
}

/** A Nova flavor, for Nova's own worked examples (disk from root + ephemeral + swap). */
export interface NovaFlavor {
  readonly vcpus: number;
  readonly memory_mb: number;
  readonly root_gb: number;
  readonly ephemeral_gb: number;
  /** Swap in MiB. */
  readonly swap: number;
  readonly extra_specs: ExtraSpecs;
}

/**
 * Nova's request from a flavor: VCPU = vcpus, MEMORY_MB = memory_mb,
 * DISK_GB = ephemeral_gb + ceil(swap / 1024) + root_gb (root omitted when
 * the instance boots from a volume), then the extra specs.
 */
export function requestFromNovaFlavor(
  flavor: NovaFlavor,
  options: { readonly bootFromVolume?: boolean } = {},
): Result<ResourceRequest, ResourceRequestError> {
  const disk =
    flavor.ephemeral_gb + Math.ceil(flavor.swap / 1024) + (options.bootFromVolume ? 0 : flavor.root_gb);
  return buildRequest({ VCPU: flavor.vcpus, MEMORY_MB: flavor.memory_mb, DISK_GB: disk }, flavor.extra_specs);
}
