/**
 * One request group of an allocation-candidates request, searched alone:
 * every way the group can be satisfied, each tied to the root provider
 * ("anchor") of the tree it serves. The groups are combined per anchor
 * afterwards (`combine-groups.ts`).
 *
 * Placement's two kinds of group:
 * - the unsuffixed group (`resources=`): each class may come from a
 *   different provider of the tree or from a sharing provider
 *   (MISC_SHARES_VIA_AGGREGATE) in an aggregate with the tree; required and
 *   forbidden traits are judged on the providers the choice uses together;
 *   `member_of` holds for a provider when it or the anchor's root is in the
 *   aggregates (a root's aggregates cover its tree, Placement bug 1792503);
 * - a suffixed group (`resources1=`, `resources_NET=`): one provider gives
 *   the whole group and has the group's traits and aggregates itself. A
 *   sharing provider serves every tree of its aggregates. A group without
 *   resources (1.36, only inside `same_subtree`) names one provider.
 */
import type { ProviderRecord } from "../store/records.js";
import { canProvide, type ProviderUsage } from "./filter.js";

export interface RequestGroup {
  /** "" for the unsuffixed group; otherwise the group's suffix ("1", "_NET"). */
  suffix: string;
  /** Amounts by class (empty: a resourceless group). */
  resources: Readonly<Record<string, number>>;
  /** Each entry: at least one of these traits (Placement's `in:`); all entries must hold. */
  required?: readonly (readonly string[])[];
  /** None of these traits. */
  forbidden?: readonly string[];
  /** Each entry: in at least one of these aggregates; all entries must hold. */
  memberOf?: readonly (readonly string[])[];
  /** In none of these aggregates. */
  notMemberOf?: readonly string[];
  /** Only from the tree that holds this provider (none if it does not exist). */
  inTree?: string;
}

/** One amount of one class from one provider. */
export interface Share {
  provider: ProviderRecord;
  resourceClass: string;
  amount: number;
}

/** One way to satisfy one group for the tree rooted at `anchor`. */
export interface GroupChoice {
  anchor: string;
  shares: Share[];
  /** The providers that serve the group (the group's `mappings` entry). */
  providers: string[];
}

/** What every group's search reads, built once per request. */
export interface SearchSpace {
  /** Every provider, oldest first. */
  ordered: readonly ProviderRecord[];
  byUuid: ReadonlyMap<string, ProviderRecord>;
  usage: ProviderUsage;
  /** Roots a candidate may be anchored at (`root_required`); undefined: any. */
  anchors: ReadonlySet<string> | undefined;
  /** Roots of every tree a sharing provider serves, itself included. */
  sharedWith(provider: ProviderRecord): readonly string[];
}

export const SHARES_VIA_AGGREGATE = "MISC_SHARES_VIA_AGGREGATE";

const intersects = (have: readonly string[], wanted: readonly string[]) =>
  wanted.some((w) => have.includes(w));

const inAggregates = (aggregates: readonly string[], memberOf: readonly (readonly string[])[]) =>
  memberOf.every((anyOf) => intersects(aggregates, anyOf));

const isSharing = (provider: ProviderRecord) => provider.traits.includes(SHARES_VIA_AGGREGATE);

/** The root of the `inTree` provider's tree; null when it does not exist, undefined when not asked. */
function treeRootOf(group: RequestGroup, space: SearchSpace): string | null | undefined {
  if (group.inTree === undefined) return undefined;
  return space.byUuid.get(group.inTree)?.rootUuid ?? null;
}

/** A suffixed group: one provider with all of the group's resources, traits and aggregates. */
function singleProviderChoices(group: RequestGroup, space: SearchSpace): GroupChoice[] {
  const treeRoot = treeRootOf(group, space);
  if (treeRoot === null) return [];
  const out: GroupChoice[] = [];
  const shares = (provider: ProviderRecord) =>
    Object.entries(group.resources).map(([resourceClass, amount]) => ({ provider, resourceClass, amount }));
  for (const provider of space.ordered) {
    if (treeRoot !== undefined && provider.rootUuid !== treeRoot) continue;
    if (!(group.required ?? []).every((anyOf) => intersects(provider.traits, anyOf))) continue;
    if (intersects(provider.traits, group.forbidden ?? [])) continue;
    if (!inAggregates(provider.aggregates, group.memberOf ?? [])) continue;
    if (intersects(provider.aggregates, group.notMemberOf ?? [])) continue;
    if (!canProvide(provider, space.usage.get(provider.uuid) ?? {}, group.resources)) continue;
    const anchors = isSharing(provider)
      ? [provider.rootUuid, ...space.sharedWith(provider).filter((root) => root !== provider.rootUuid)]
      : [provider.rootUuid];
    for (const anchor of anchors) {
      if (space.anchors !== undefined && !space.anchors.has(anchor)) continue;
      out.push({ anchor, shares: shares(provider), providers: [provider.uuid] });
    }
  }
  return out;
}

/** For one class: by anchor, the providers that could give the amount to that anchor's tree. */
function suppliersByAnchor(
  group: RequestGroup,
  resourceClass: string,
  amount: number,
  treeRoot: string | undefined,
  space: SearchSpace,
): Map<string, ProviderRecord[]> {
  const memberOf = group.memberOf ?? [];
  const notMemberOf = group.notMemberOf ?? [];
  const aggregatesOf = (uuid: string) => space.byUuid.get(uuid)?.aggregates ?? [];
  const out = new Map<string, ProviderRecord[]>();
  const add = (provider: ProviderRecord, anchor: string) => {
    if (space.anchors !== undefined && !space.anchors.has(anchor)) return;
    if (
      memberOf.length > 0 &&
      !inAggregates(provider.aggregates, memberOf) &&
      !inAggregates(aggregatesOf(anchor), memberOf)
    )
      return;
    if (intersects(provider.aggregates, notMemberOf) || intersects(aggregatesOf(anchor), notMemberOf)) return;
    const list = out.get(anchor) ?? [];
    if (!list.includes(provider)) list.push(provider);
    out.set(anchor, list);
  };
  for (const provider of space.ordered) {
    if (treeRoot !== undefined && provider.rootUuid !== treeRoot) continue;
    if (!canProvide(provider, space.usage.get(provider.uuid) ?? {}, { [resourceClass]: amount })) continue;
    add(provider, provider.rootUuid);
    // A sharing provider lends to other trees only outside `in_tree` and when it is in the aggregates itself.
    if (treeRoot === undefined && isSharing(provider) && inAggregates(provider.aggregates, memberOf))
      for (const anchor of space.sharedWith(provider)) add(provider, anchor);
  }
  return out;
}

/** Every combination picking one entry of each list. */
function* product<T>(lists: readonly (readonly T[])[]): Generator<T[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = lists as [readonly T[], ...(readonly T[])[]];
  for (const head of first) for (const tail of product(rest)) yield [head, ...tail];
}

/** The unsuffixed group: classes spread over a tree and the sharing providers of its aggregates. */
function treeChoices(group: RequestGroup, space: SearchSpace): GroupChoice[] {
  const treeRoot = treeRootOf(group, space);
  if (treeRoot === null) return [];
  const classes = Object.entries(group.resources);
  const perClass = classes.map(([resourceClass, amount]) =>
    suppliersByAnchor(group, resourceClass, amount, treeRoot, space),
  );
  const first = perClass[0];
  if (first === undefined) return [];
  const out: GroupChoice[] = [];
  const required = group.required ?? [];
  const forbidden = group.forbidden ?? [];
  for (const anchor of first.keys()) {
    const lists = perClass.map((byAnchor) => byAnchor.get(anchor) ?? []);
    if (lists.some((list) => list.length === 0)) continue;
    for (const picked of product(lists)) {
      const used = [...new Set(picked)];
      if (used.some((p) => intersects(p.traits, forbidden))) continue;
      const traits = used.flatMap((p) => p.traits);
      if (!required.every((anyOf) => intersects(traits, anyOf))) continue;
      out.push({
        anchor,
        shares: picked.map((provider, index) => {
          const [resourceClass, amount] = classes[index] as [string, number];
          return { provider, resourceClass, amount };
        }),
        providers: used.map((p) => p.uuid),
      });
    }
  }
  return out;
}

/** Every way `group` alone can be satisfied now. */
export function groupChoices(group: RequestGroup, space: SearchSpace): GroupChoice[] {
  return group.suffix === "" ? treeChoices(group, space) : singleProviderChoices(group, space);
}
