/**
 * Placement's allocation candidates (`GET /allocation_candidates`): every
 * way the provider trees can give all the request groups now. Each group
 * is searched alone (`request-group.ts`: the unsuffixed group spreads over
 * a tree and its sharing providers, a suffixed group takes one provider),
 * then for each root provider ("anchor") one choice of every group is
 * combined under the request-wide rules (`combine-groups.ts`:
 * `group_policy`, `same_subtree`, summed capacity). `root_required` limits
 * the anchors. Capacity and unit rules are the same `canProvide` the
 * listing and the claims use.
 */
import type { ProviderRecord } from "../store/records.js";
import { CandidateIndex, SHARES_VIA_AGGREGATE } from "./candidate-index.js";
import { type Combined, combineForAnchor } from "./combine-groups.js";
import type { ProviderUsage } from "./filter.js";
import { LoneTreeSearch } from "./lone-tree.js";
import { type GroupChoice, groupChoices, type RequestGroup, type SearchSpace } from "./request-group.js";

export type { RequestGroup } from "./request-group.js";

/**
 * Placement's allocation-candidates request (`GET /allocation_candidates`): request groups and the
 * policies between them.
 */
export interface CandidateRequest {
  /** The unsuffixed group (suffix "") and the suffixed ones, in request order; suffixes are unique. */
  groups: readonly RequestGroup[];
  /** "isolate": the suffixed groups are served by distinct providers. */
  groupPolicy?: "none" | "isolate";
  /** The root of a candidate's tree has all of these traits (`root_required`). */
  rootRequired?: readonly string[];
  /** ... and none of these. */
  rootForbidden?: readonly string[];
  /** Each entry: the providers of these suffixed groups hang under one of them (`same_subtree`). */
  sameSubtree?: readonly (readonly string[])[];
  /** At most one provider of a tree per candidate, sharing ones aside (Placement before 1.29). */
  oneProviderPerTree?: boolean;
  /** At most this many candidates (the first ones, in tree creation order). */
  limit?: number;
}

/**
 * One way to satisfy the request: the amounts per provider, and which providers serve each group.
 * A candidate may be shared between answers (the search of lone trees keeps them): never changed.
 */
export interface Candidate {
  /** By provider uuid: the amounts by class it gives (possibly shared between candidates: never changed). */
  allocations: Record<string, Readonly<Record<string, number>>>;
  /** By group suffix ("" unsuffixed): the providers serving that group. */
  mappings: Record<string, string[]>;
}

/** The candidates found, with what their providers hold (for Placement's provider summaries). */
export interface CandidateAnswer {
  /** In tree creation order, at most the request's `limit`. */
  candidates: Candidate[];
  /**
   * Every provider of the trees the candidates take resources from, in
   * creation order (with `oneProviderPerTree`: only the providers used).
   */
  providers: ProviderRecord[];
  /** What the providers' classes hold, as the search judged them (for the summaries' `used`). */
  usage: ProviderUsage;
  /**
   * True when every candidate takes from one provider alone for the one
   * unsuffixed group, the same amounts each: `candidates[i]` from
   * `providers[i]` (the search of lone trees). A writer can then key what it
   * keeps on the providers alone.
   */
  alone?: boolean;
}

/** The roots a candidate may be anchored at (`root_required`); undefined: any. */
function allowedAnchors(index: CandidateIndex, request: CandidateRequest): Set<string> | undefined {
  const required = request.rootRequired ?? [];
  const forbidden = request.rootForbidden ?? [];
  if (required.length === 0 && forbidden.length === 0) return undefined;
  return new Set(
    index.roots
      .filter(
        (p) => required.every((t) => p.traits.includes(t)) && !forbidden.some((t) => p.traits.includes(t)),
      )
      .map((p) => p.uuid),
  );
}

const keyOf = (combined: Combined) =>
  JSON.stringify([
    Object.entries(combined.allocations)
      .map(([uuid, amounts]) => [uuid, Object.entries(amounts).sort()])
      .sort(),
    Object.entries(combined.mappings)
      .map(([suffix, uuids]) => [suffix, [...uuids].sort()])
      .sort(),
  ]);

/** Before 1.29: a candidate may use one provider per tree (a sharing provider is its own tree). */
function onePerTree(combined: Combined, byUuid: ReadonlyMap<string, ProviderRecord>): boolean {
  const roots = Object.keys(combined.allocations).map((uuid) => byUuid.get(uuid)?.rootUuid);
  return new Set(roots).size === roots.length;
}

/** True when the candidate takes from a provider of the anchor's own tree (not only from sharing ones). */
function anchoredAt(combined: Combined, root: string, byUuid: ReadonlyMap<string, ProviderRecord>): boolean {
  for (const uuid in combined.allocations) {
    const provider = byUuid.get(uuid);
    if (provider?.rootUuid === root && !provider.traits.includes(SHARES_VIA_AGGREGATE)) return true;
  }
  return false;
}

/**
 * The candidates, anchored at each root in creation order. `providers` is
 * the providers as read, or their index built once (`CandidateIndex`, what
 * the engine's provider view keeps between requests).
 */
export function allocationCandidates(
  providers: readonly ProviderRecord[] | CandidateIndex,
  usage: ProviderUsage,
  request: CandidateRequest,
): CandidateAnswer {
  const index = providers instanceof CandidateIndex ? providers : new CandidateIndex(providers);
  const space: SearchSpace = {
    byUuid: index.byUuid,
    usage,
    tree: (root) => index.tree(root),
    lenders: (root) => index.lenders(root),
  };
  const anchors = allowedAnchors(index, request);
  const rules = {
    suffixes: request.groups.map((g) => g.suffix),
    isolate: request.groupPolicy === "isolate",
    sameSubtree: request.sameSubtree ?? [],
    byUuid: index.byUuid,
    usage,
  };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  // One callback for every tree (not one per tree searched): `anchor` is the tree's root.
  let anchor = "";
  const take = (combined: Combined): boolean => {
    if (request.oneProviderPerTree && !onePerTree(combined, index.byUuid)) return false;
    // A candidate made of sharing providers alone can come again from another tree they lend to.
    if (!anchoredAt(combined, anchor, index.byUuid)) {
      const key = keyOf(combined);
      if (seen.has(key)) return false;
      seen.add(key);
    }
    candidates.push(combined);
    return candidates.length >= limit;
  };
  const lone = LoneTreeSearch.of(request.groups, index);
  // The lone roots taken, in creation order; and from the general search, the roots of the trees
  // its candidates take from (and, before 1.29, the providers they use).
  const loneTaken: ProviderRecord[] = [];
  const treesTaken = new Set<string>();
  const taken = new Set<ProviderRecord>();
  const { roots } = index;
  for (let at = 0; at < roots.length; at++) {
    const root = roots[at] as ProviderRecord;
    if (anchors !== undefined && !anchors.has(root.uuid)) continue;
    if (lone !== undefined && index.lone[at]) {
      if (!lone.admits(at, usage)) continue;
      candidates.push(lone.candidate(at));
      loneTaken.push(root);
      if (candidates.length >= limit) break;
      continue;
    }
    // Each group alone for this tree; one group with no choice leaves the tree out.
    const lists: GroupChoice[][] = [];
    for (const group of request.groups) {
      const choices = groupChoices(group, root.uuid, space);
      if (choices.length === 0) break;
      lists.push(choices);
    }
    if (lists.length < request.groups.length) continue;
    anchor = root.uuid;
    const before = candidates.length;
    const enough = combineForAnchor(lists, rules, take);
    for (const candidate of candidates.slice(before))
      for (const uuid in candidate.allocations) {
        const provider = index.byUuid.get(uuid);
        if (provider === undefined) continue;
        taken.add(provider);
        treesTaken.add(provider.rootUuid);
      }
    if (enough) break;
  }
  // Lone trees only: each tree is its root, and the roots were visited in creation order.
  if (taken.size === 0) return { candidates, providers: loneTaken, usage, alone: true };
  for (const root of loneTaken) {
    taken.add(root);
    treesTaken.add(root.uuid);
  }
  if (request.oneProviderPerTree) return { candidates, providers: index.inOrder([...taken]), usage };
  // Summaries cover every provider of each tree a candidate takes resources from.
  return { candidates, providers: index.treesOf(treesTaken), usage };
}
