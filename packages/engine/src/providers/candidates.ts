/**
 * Placement's allocation candidates for one un-grouped request (what Nova's
 * scheduler sends: `GET /allocation_candidates?resources=…`): every way one
 * provider tree can give all the requested amounts now. Each class comes
 * from one provider of the tree; a provider giving several classes must hold
 * them all at once (the same `canProvide` capacity and unit rules the
 * listing and the claims use). Required and forbidden traits are judged on
 * the providers a candidate uses together; aggregate membership on each of
 * them, a root's aggregates counting for its whole tree (Placement's bug
 * 1792503 rule).
 * A provider with MISC_SHARES_VIA_AGGREGATE (shared storage) can give a
 * class to any tree it shares an aggregate with. Granular groups and
 * `same_subtree` are not handled here (README "Berth as OpenStack Placement" says what is not served).
 */
import type { ProviderRecord } from "../store/records.js";
import { canProvide, type ProviderUsage } from "./filter.js";

export interface CandidateRequest {
  /** Amounts by class for the one consumer. */
  resources: Readonly<Record<string, number>>;
  /** Each group: some provider of the candidate has at least one of these traits. */
  required?: readonly (readonly string[])[];
  /** No provider of the candidate has any of these traits. */
  forbidden?: readonly string[];
  /** Each group: some provider of the candidate is in at least one of these aggregates. */
  memberOf?: readonly (readonly string[])[];
  /** No provider of the candidate is in any of these aggregates. */
  notMemberOf?: readonly string[];
  /** Only the tree that holds this provider (none if it does not exist). */
  inTree?: string;
  /** At most one provider of a tree per candidate, sharing ones aside (Placement before 1.29). */
  oneProviderPerTree?: boolean;
  /** At most this many candidates (the first ones, in tree creation order). */
  limit?: number;
}

export interface Candidate {
  /** By provider uuid: the amounts by class it gives. */
  allocations: Record<string, Record<string, number>>;
}

export interface CandidateAnswer {
  candidates: Candidate[];
  /** Every provider of the trees the candidates come from, in creation order. */
  providers: ProviderRecord[];
}

const intersects = (have: readonly string[], wanted: readonly string[]) =>
  wanted.some((w) => have.includes(w));

function acceptable(
  used: readonly ProviderRecord[],
  request: CandidateRequest,
  rootOf: (provider: ProviderRecord) => ProviderRecord,
): boolean {
  const traits = used.flatMap((p) => p.traits);
  // A root's aggregates cover its whole tree; each provider used must be in them.
  const inAggregates = (p: ProviderRecord) => {
    const aggregates = [...p.aggregates, ...rootOf(p).aggregates];
    return (
      (request.memberOf ?? []).every((group) => intersects(aggregates, group)) &&
      !intersects(aggregates, request.notMemberOf ?? [])
    );
  };
  return (
    (request.required ?? []).every((group) => intersects(traits, group)) &&
    !intersects(traits, request.forbidden ?? []) &&
    used.every(inAggregates)
  );
}

/** Every assignment of the request's classes to the tree's providers that fits now. */
function treeCandidates(
  tree: readonly ProviderRecord[],
  providers: readonly ProviderRecord[],
  usage: ProviderUsage,
  request: CandidateRequest,
  seen: Set<string>,
  rootOf: (provider: ProviderRecord) => ProviderRecord,
) {
  const classes = Object.keys(request.resources);
  const out: Candidate[] = [];
  const assign = (index: number, chosen: Map<string, ProviderRecord>): void => {
    if (index === classes.length) {
      const allocations: Record<string, Record<string, number>> = {};
      for (const [resourceClass, provider] of chosen) {
        const amounts = allocations[provider.uuid] ?? {};
        amounts[resourceClass] = request.resources[resourceClass] ?? 0;
        allocations[provider.uuid] = amounts;
      }
      const used = providers.filter((p) => allocations[p.uuid] !== undefined);
      if (request.oneProviderPerTree && used.filter((p) => tree.includes(p)).length > 1) return;
      if (!used.every((p) => canProvide(p, usage.get(p.uuid) ?? {}, allocations[p.uuid] ?? {}))) return;
      if (!acceptable(used, request, rootOf)) return;
      const key = JSON.stringify(Object.entries(allocations).sort(([a], [b]) => a.localeCompare(b)));
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ allocations });
      return;
    }
    const resourceClass = classes[index] as string;
    const amount = { [resourceClass]: request.resources[resourceClass] ?? 0 };
    for (const provider of providers) {
      if (!canProvide(provider, usage.get(provider.uuid) ?? {}, amount)) continue;
      chosen.set(resourceClass, provider);
      assign(index + 1, chosen);
      chosen.delete(resourceClass);
    }
  };
  assign(0, new Map());
  return out;
}

const SHARES = "MISC_SHARES_VIA_AGGREGATE";

/** The tree's providers and the sharing providers of its aggregates. */
function pool(tree: readonly ProviderRecord[], all: readonly ProviderRecord[]): ProviderRecord[] {
  const aggregates = tree.flatMap((p) => p.aggregates);
  const sharing = all.filter(
    (p) => p.traits.includes(SHARES) && !tree.includes(p) && intersects(p.aggregates, aggregates),
  );
  return [...tree, ...sharing];
}

export function allocationCandidates(
  providers: readonly ProviderRecord[],
  usage: ProviderUsage,
  request: CandidateRequest,
): CandidateAnswer {
  const ordered = [...providers].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  let onlyRoot: string | undefined;
  if (request.inTree !== undefined) {
    onlyRoot = ordered.find((p) => p.uuid === request.inTree)?.rootUuid;
    if (onlyRoot === undefined) return { candidates: [], providers: [] };
  }
  const roots = ordered.filter(
    (p) => p.parentUuid === null && (onlyRoot === undefined || p.uuid === onlyRoot),
  );
  const byUuid = new Map(ordered.map((p) => [p.uuid, p]));
  const rootOf = (p: ProviderRecord) => byUuid.get(p.rootUuid) ?? p;
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    if (request.limit !== undefined && candidates.length >= request.limit) break;
    const tree = ordered.filter((p) => p.rootUuid === root.uuid);
    // `in_tree` keeps sharing providers outside the tree out too.
    const providers = onlyRoot === undefined ? pool(tree, ordered) : tree;
    let found = treeCandidates(tree, providers, usage, request, seen, rootOf);
    if (request.limit !== undefined) found = found.slice(0, request.limit - candidates.length);
    candidates.push(...found);
  }
  // Summaries cover every provider of each tree a candidate touches.
  const touched = new Set(
    candidates
      .flatMap((c) => Object.keys(c.allocations))
      .map((uuid) => ordered.find((p) => p.uuid === uuid)?.rootUuid),
  );
  return { candidates, providers: ordered.filter((p) => touched.has(p.rootUuid)) };
}
