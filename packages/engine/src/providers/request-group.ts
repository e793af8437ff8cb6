/**
 * One request group of an allocation-candidates request, searched alone:
 * every way the group can be satisfied for the tree of one root provider
 * (its "anchor"). The groups are combined per anchor
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
 * Each search is for one anchor, so a request with `limit` stops after the
 * first trees that give enough candidates.
 */
import type { ProviderRecord } from "../store/records.js";
import { canProvide, canProvideOne, intersects, type ProviderUsage } from "./filter.js";

/**
 * One request group of Placement's allocation-candidates query (`resources`, `resourcesN`, with
 * its traits and aggregates).
 */
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

/** One way to satisfy one group for the tree rooted at `anchor`. */
export interface GroupChoice {
  anchor: string;
  /** By provider uuid: the amounts by class it gives (a candidate's `allocations` shape). */
  allocations: Record<string, Record<string, number>>;
  /** The providers that serve the group (the group's `mappings` entry). */
  providers: string[];
}

/** What every group's search reads, built once per request. */
export interface SearchSpace {
  byUuid: ReadonlyMap<string, ProviderRecord>;
  usage: ProviderUsage;
  /** The providers of the tree rooted at `root`, oldest first. */
  tree(root: string): readonly ProviderRecord[];
  /** Sharing providers outside the tree rooted at `root` that lend to it (an aggregate in common). */
  lenders(root: string): readonly ProviderRecord[];
}

export { SHARES_VIA_AGGREGATE } from "./candidate-index.js";

const NO_NAMES: readonly string[] = [];
const NO_GROUPS: readonly (readonly string[])[] = [];

const inAggregates = (aggregates: readonly string[], memberOf: readonly (readonly string[])[]) =>
  memberOf.every((anyOf) => intersects(aggregates, anyOf));

/** The root of the `inTree` provider's tree; null when it does not exist, undefined when not asked. */
function treeRootOf(group: RequestGroup, space: SearchSpace): string | null | undefined {
  if (group.inTree === undefined) return undefined;
  return space.byUuid.get(group.inTree)?.rootUuid ?? null;
}

/**
 * A suffixed group for the tree rooted at `anchor`: one provider of the
 * tree, or a sharing provider lending to it, with all of the group's
 * resources, traits and aggregates.
 */
function singleProviderChoices(group: RequestGroup, anchor: string, space: SearchSpace): GroupChoice[] {
  const treeRoot = treeRootOf(group, space);
  if (treeRoot === null) return [];
  // A resourceless group (1.36) names its provider in the mappings only.
  const resourceless = Object.keys(group.resources).length === 0;
  const out: GroupChoice[] = [];
  for (const provider of [...space.tree(anchor), ...space.lenders(anchor)]) {
    if (treeRoot !== undefined && provider.rootUuid !== treeRoot) continue;
    if (!(group.required ?? []).every((anyOf) => intersects(provider.traits, anyOf))) continue;
    if (intersects(provider.traits, group.forbidden ?? [])) continue;
    if (!inAggregates(provider.aggregates, group.memberOf ?? [])) continue;
    if (intersects(provider.aggregates, group.notMemberOf ?? [])) continue;
    if (!canProvide(provider, space.usage.get(provider.uuid) ?? {}, group.resources)) continue;
    const allocations = resourceless ? {} : { [provider.uuid]: { ...group.resources } };
    out.push({ anchor, allocations, providers: [provider.uuid] });
  }
  return out;
}

/** For one class: the providers that could give the amount to the tree rooted at `anchor`. */
function suppliers(
  group: RequestGroup,
  resourceClass: string,
  amount: number,
  anchor: string,
  space: SearchSpace,
): ProviderRecord[] {
  const memberOf = group.memberOf ?? NO_GROUPS;
  const notMemberOf = group.notMemberOf ?? NO_NAMES;
  const anchorAggregates = space.byUuid.get(anchor)?.aggregates ?? NO_NAMES;
  // `member_of` holds for the provider or the tree's root; `!member_of` for neither.
  const rootInAggregates = memberOf.length === 0 || inAggregates(anchorAggregates, memberOf);
  if (intersects(anchorAggregates, notMemberOf)) return [];
  const out: ProviderRecord[] = [];
  for (const provider of space.tree(anchor))
    if (supplies(provider, rootInAggregates, memberOf, notMemberOf, space, resourceClass, amount))
      out.push(provider);
  // A sharing provider lends outside `in_tree` only, and when it is in the aggregates itself.
  if (group.inTree === undefined)
    for (const lender of space.lenders(anchor))
      if (
        inAggregates(lender.aggregates, memberOf) &&
        supplies(lender, rootInAggregates, memberOf, notMemberOf, space, resourceClass, amount)
      )
        out.push(lender);
  return out;
}

/** `suppliers`' test of one provider (a function, not a closure made per class and tree searched). */
function supplies(
  provider: ProviderRecord,
  rootInAggregates: boolean,
  memberOf: readonly (readonly string[])[],
  notMemberOf: readonly string[],
  space: SearchSpace,
  resourceClass: string,
  amount: number,
): boolean {
  return (
    (rootInAggregates || inAggregates(provider.aggregates, memberOf)) &&
    !intersects(provider.aggregates, notMemberOf) &&
    canProvideOne(provider, space.usage.get(provider.uuid), resourceClass, amount)
  );
}

/** A group's classes and amounts, listed once per group rather than once per tree searched. */
const classesOf = new WeakMap<RequestGroup, [string, number][]>();

function classesIn(group: RequestGroup): [string, number][] {
  let classes = classesOf.get(group);
  if (classes === undefined) {
    classes = Object.entries(group.resources);
    classesOf.set(group, classes);
  }
  return classes;
}

/** Calls `visit` with every combination picking one entry of each list (the array is reused). */
function forEachPick<T>(lists: readonly (readonly T[])[], visit: (picked: readonly T[]) => void): void {
  const picked = lists.map((list) => list[0] as T);
  const at = lists.map(() => 0);
  for (;;) {
    visit(picked);
    // Advance like an odometer, the last list fastest (the order the searches always had).
    let index = lists.length - 1;
    while (index >= 0) {
      const list = lists[index] as readonly T[];
      const next = (at[index] as number) + 1;
      if (next < list.length) {
        at[index] = next;
        picked[index] = list[next] as T;
        break;
      }
      at[index] = 0;
      picked[index] = list[0] as T;
      index -= 1;
    }
    if (index < 0) return;
  }
}

/** The distinct entries, in first-seen order. */
function distinct<T>(items: readonly T[]): T[] {
  const out: T[] = [];
  for (const item of items) if (!out.includes(item)) out.push(item);
  return out;
}

/** The unsuffixed group for the tree rooted at `anchor`: classes spread over the tree and its lenders. */
function treeChoices(group: RequestGroup, anchor: string, space: SearchSpace): GroupChoice[] {
  const treeRoot = treeRootOf(group, space);
  if (treeRoot === null || (treeRoot !== undefined && treeRoot !== anchor)) return [];
  const classes = classesIn(group);
  const lists: ProviderRecord[][] = [];
  for (const [resourceClass, amount] of classes) {
    const list = suppliers(group, resourceClass, amount, anchor, space);
    if (list.length === 0) return [];
    lists.push(list);
  }
  const out: GroupChoice[] = [];
  const required = group.required ?? NO_GROUPS;
  const forbidden = group.forbidden ?? NO_NAMES;
  forEachPick(lists, (picked) => {
    if (forbidden.length > 0 || required.length > 0) {
      const used = distinct(picked);
      if (used.some((p) => intersects(p.traits, forbidden))) return;
      const traits = used.flatMap((p) => p.traits);
      if (!required.every((anyOf) => intersects(traits, anyOf))) return;
    }
    // Plain loops: this runs once per tree searched (1,000 times for a full answer).
    const allocations: GroupChoice["allocations"] = {};
    const providers: string[] = [];
    for (let index = 0; index < picked.length; index++) {
      const { uuid } = picked[index] as ProviderRecord;
      const [resourceClass, amount] = classes[index] as [string, number];
      let amounts = allocations[uuid];
      if (amounts === undefined) {
        amounts = allocations[uuid] = {};
        providers.push(uuid);
      }
      amounts[resourceClass] = amount;
    }
    out.push({ anchor, allocations, providers });
  });
  return out;
}

/** Every way `group` alone can be satisfied now for the tree rooted at `anchor`. */
export function groupChoices(group: RequestGroup, anchor: string, space: SearchSpace): GroupChoice[] {
  return group.suffix === ""
    ? treeChoices(group, anchor, space)
    : singleProviderChoices(group, anchor, space);
}
