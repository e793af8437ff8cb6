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
import { type Combined, combineForAnchor } from "./combine-groups.js";
import type { ProviderUsage } from "./filter.js";
import {
  type GroupChoice,
  groupChoices,
  type RequestGroup,
  type SearchSpace,
  SHARES_VIA_AGGREGATE,
} from "./request-group.js";

export type { RequestGroup } from "./request-group.js";

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

export interface Candidate {
  /** By provider uuid: the amounts by class it gives. */
  allocations: Record<string, Record<string, number>>;
  /** By group suffix ("" unsuffixed): the providers serving that group. */
  mappings: Record<string, string[]>;
}

export interface CandidateAnswer {
  candidates: Candidate[];
  /**
   * Every provider of the trees the candidates take resources from, in
   * creation order (with `oneProviderPerTree`: only the providers used).
   */
  providers: ProviderRecord[];
}

/** The roots a candidate may be anchored at (`root_required`); undefined: any. */
function allowedAnchors(
  ordered: readonly ProviderRecord[],
  request: CandidateRequest,
): Set<string> | undefined {
  const required = request.rootRequired ?? [];
  const forbidden = request.rootForbidden ?? [];
  if (required.length === 0 && forbidden.length === 0) return undefined;
  return new Set(
    ordered
      .filter(
        (p) =>
          p.parentUuid === null &&
          required.every((t) => p.traits.includes(t)) &&
          !forbidden.some((t) => p.traits.includes(t)),
      )
      .map((p) => p.uuid),
  );
}

function searchSpace(ordered: readonly ProviderRecord[], usage: ProviderUsage): SearchSpace {
  const byUuid = new Map(ordered.map((p) => [p.uuid, p]));
  const trees = new Map<string, ProviderRecord[]>();
  for (const provider of ordered) {
    const tree = trees.get(provider.rootUuid) ?? [];
    tree.push(provider);
    trees.set(provider.rootUuid, tree);
  }
  // A sharing provider lends to the root of every provider that is in one of its aggregates:
  // the roots are indexed by aggregate once, so a sharing provider never rescans every provider.
  const rootsIn = new Map<string, Set<string>>();
  for (const provider of ordered)
    for (const aggregate of provider.aggregates) {
      const roots = rootsIn.get(aggregate) ?? new Set<string>();
      roots.add(provider.rootUuid);
      rootsIn.set(aggregate, roots);
    }
  const lenders = new Map<string, ProviderRecord[]>();
  for (const sharing of ordered) {
    if (!sharing.traits.includes(SHARES_VIA_AGGREGATE)) continue;
    const roots = new Set(sharing.aggregates.flatMap((a) => [...(rootsIn.get(a) ?? [])]));
    roots.delete(sharing.rootUuid);
    for (const root of roots) {
      const list = lenders.get(root);
      if (list === undefined) lenders.set(root, [sharing]);
      else list.push(sharing);
    }
  }
  return { byUuid, usage, tree: (root) => trees.get(root) ?? [], lenders: (root) => lenders.get(root) ?? [] };
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

export function allocationCandidates(
  providers: readonly ProviderRecord[],
  usage: ProviderUsage,
  request: CandidateRequest,
): CandidateAnswer {
  const ordered = [...providers].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const space = searchSpace(ordered, usage);
  const anchors = allowedAnchors(ordered, request);
  const rules = {
    suffixes: request.groups.map((g) => g.suffix),
    isolate: request.groupPolicy === "isolate",
    sameSubtree: request.sameSubtree ?? [],
    byUuid: space.byUuid,
    usage,
  };
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  outer: for (const root of ordered) {
    if (root.parentUuid !== null || (anchors !== undefined && !anchors.has(root.uuid))) continue;
    // Each group alone for this tree; one group with no choice leaves the tree out.
    const lists: GroupChoice[][] = [];
    for (const group of request.groups) {
      const choices = groupChoices(group, root.uuid, space);
      if (choices.length === 0) continue outer;
      lists.push(choices);
    }
    for (const combined of combineForAnchor(lists, rules)) {
      if (request.oneProviderPerTree && !onePerTree(combined, space.byUuid)) continue;
      // A candidate made of sharing providers alone can come again from another tree they lend to.
      const anchored = Object.keys(combined.allocations).some((uuid) => {
        const provider = space.byUuid.get(uuid);
        return provider?.rootUuid === root.uuid && !provider.traits.includes(SHARES_VIA_AGGREGATE);
      });
      if (!anchored) {
        const key = keyOf(combined);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      candidates.push(combined);
      if (request.limit !== undefined && candidates.length >= request.limit) break outer;
    }
  }
  const used = new Set(candidates.flatMap((c) => Object.keys(c.allocations)));
  if (request.oneProviderPerTree) return { candidates, providers: ordered.filter((p) => used.has(p.uuid)) };
  // Summaries cover every provider of each tree a candidate takes resources from.
  const trees = new Set([...used].map((uuid) => space.byUuid.get(uuid)?.rootUuid));
  return { candidates, providers: ordered.filter((p) => trees.has(p.rootUuid)) };
}
