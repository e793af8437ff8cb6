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
import type { ProviderRecord } from "../store/records.js";

export const SHARES_VIA_AGGREGATE = "MISC_SHARES_VIA_AGGREGATE";

const NONE: readonly ProviderRecord[] = [];

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
