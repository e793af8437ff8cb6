/**
 * What every allocation-candidates search reads of the providers, beside
 * their usage: the providers in creation order, by uuid, each tree's
 * providers by root, and the sharing providers (MISC_SHARES_VIA_AGGREGATE)
 * that lend to each root. It depends on the provider rows only (never on
 * usage), so the provider view (provider-view.ts) builds it once per change
 * of the rows and every request until the next change reuses it: a request
 * with `limit=1` then costs the trees it visits, not a pass over every
 * provider.
 */
import { type Inventory, inventoryCapacity } from "@berth/resources";
import type { ProviderRecord } from "../store/records.js";

export const SHARES_VIA_AGGREGATE = "MISC_SHARES_VIA_AGGREGATE";

const NONE: readonly ProviderRecord[] = [];

/** One resource class over the roots (aligned with `CandidateIndex.roots`): what a search of lone trees reads. */
export interface RootColumn {
  /** Each root's inventory of the class; undefined: it has none. */
  inventories: readonly (Inventory | undefined)[];
  /** Each root's capacity of the class (`inventoryCapacity`; 0 without an inventory). */
  capacity: Float64Array;
}

export class CandidateIndex {
  /** Every provider, oldest first (creation order; equal times keep the given order). */
  readonly ordered: readonly ProviderRecord[];
  readonly byUuid: ReadonlyMap<string, ProviderRecord>;
  /** The root providers, oldest first: the anchors a search visits. */
  readonly roots: readonly ProviderRecord[];
  /** Each provider's place in `ordered`. */
  private readonly position = new Map<string, number>();
  private readonly trees = new Map<string, ProviderRecord[]>();
  private readonly lending = new Map<string, ProviderRecord[]>();
  /** Per resource class, built on first use (the rows, hence the inventories, hold while the index does). */
  private readonly columns = new Map<string, RootColumn>();
  /**
   * Per root (aligned with `roots`): the tree is the root alone, no sharing
   * provider lends to it and it lends to none, so the unsuffixed group's
   * only choice there is the root itself (lone-tree.ts).
   */
  readonly lone: readonly boolean[];

  constructor(providers: readonly ProviderRecord[]) {
    const ordered = [...providers].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    this.ordered = ordered;
    this.byUuid = new Map(ordered.map((p) => [p.uuid, p]));
    this.roots = ordered.filter((p) => p.parentUuid === null);
    ordered.forEach((provider, index) => {
      this.position.set(provider.uuid, index);
      const tree = this.trees.get(provider.rootUuid);
      if (tree === undefined) this.trees.set(provider.rootUuid, [provider]);
      else tree.push(provider);
    });
    // A sharing provider lends to the root of every provider that is in one of its aggregates:
    // the roots are indexed by aggregate once, so a sharing provider never rescans every provider.
    const rootsIn = new Map<string, Set<string>>();
    for (const provider of ordered)
      for (const aggregate of provider.aggregates) {
        const roots = rootsIn.get(aggregate) ?? new Set<string>();
        roots.add(provider.rootUuid);
        rootsIn.set(aggregate, roots);
      }
    for (const sharing of ordered) {
      if (!sharing.traits.includes(SHARES_VIA_AGGREGATE)) continue;
      const roots = new Set(sharing.aggregates.flatMap((a) => [...(rootsIn.get(a) ?? [])]));
      roots.delete(sharing.rootUuid);
      for (const root of roots) {
        const list = this.lending.get(root);
        if (list === undefined) this.lending.set(root, [sharing]);
        else list.push(sharing);
      }
    }
    this.lone = this.roots.map(
      (root) =>
        this.tree(root.uuid).length === 1 &&
        this.lenders(root.uuid).length === 0 &&
        !root.traits.includes(SHARES_VIA_AGGREGATE),
    );
  }

  /** The roots' inventories and capacities of one class, kept for the index's life. */
  rootColumn(resourceClass: string): RootColumn {
    let column = this.columns.get(resourceClass);
    if (column === undefined) {
      const inventories = this.roots.map((root) => root.inventories[resourceClass]);
      const capacity = new Float64Array(inventories.length);
      inventories.forEach((inventory, at) => {
        if (inventory !== undefined) capacity[at] = inventoryCapacity(inventory);
      });
      column = { inventories, capacity };
      this.columns.set(resourceClass, column);
    }
    return column;
  }

  /** The providers of the tree rooted at `root`, oldest first. */
  tree(root: string): readonly ProviderRecord[] {
    return this.trees.get(root) ?? NONE;
  }

  /** Sharing providers outside the tree rooted at `root` that lend to it (an aggregate in common). */
  lenders(root: string): readonly ProviderRecord[] {
    return this.lending.get(root) ?? NONE;
  }

  /** The providers of these trees, in creation order. */
  treesOf(roots: ReadonlySet<string>): ProviderRecord[] {
    // Few trees (a request with a limit): gather them; many: one pass keeps the order for free.
    if (roots.size * 8 > this.roots.length) return this.ordered.filter((p) => roots.has(p.rootUuid));
    return this.inOrder([...roots].flatMap((root) => this.tree(root)));
  }

  /** These providers, in creation order. */
  inOrder(providers: readonly ProviderRecord[]): ProviderRecord[] {
    const at = (p: ProviderRecord) => this.position.get(p.uuid) ?? Number.MAX_SAFE_INTEGER;
    return [...providers].sort((a, b) => at(a) - at(b));
  }
}
