/**
 * The search's common case in one pass: the unsuffixed group alone, over a
 * tree that is its root alone with no sharing provider lending to it (a
 * plain cloud's compute nodes: the full list Nova's scheduler asks for).
 * There the group's only choice is the root itself, so the search is one
 * test per root, read from the index's per-class columns, and a candidate
 * is its three small objects (no supplier lists, no choice or combination
 * objects). Every other tree, and every other request, takes the general
 * search (request-group.ts, combine-groups.ts); both give the same
 * candidates for a lone tree (candidates.test.ts compares them).
 */
import type { CandidateIndex, RootColumn } from "./candidate-index.js";
import { fitsInventory, intersects, type ProviderUsage } from "./filter.js";
import type { RequestGroup } from "./request-group.js";

const NO_NAMES: readonly string[] = [];
const NO_GROUPS: readonly (readonly string[])[] = [];

/** The unsuffixed group's test of a lone root, set up once per request. */
export class LoneTreeSearch {
  /** The group's amounts by class, in request order: shared by every candidate of this answer, never changed. */
  readonly amounts: Readonly<Record<string, number>>;
  private readonly classes: string[];
  private readonly wanted: number[];
  private readonly columns: RootColumn[];
  private readonly required: readonly (readonly string[])[];
  private readonly forbidden: readonly string[];
  private readonly memberOf: readonly (readonly string[])[];
  private readonly notMemberOf: readonly string[];
  /** The `in_tree` provider's root: undefined when not asked, null when it does not exist. */
  private readonly treeRoot: string | null | undefined;

  private constructor(
    group: RequestGroup,
    private readonly index: CandidateIndex,
  ) {
    this.amounts = { ...group.resources };
    this.classes = Object.keys(this.amounts);
    this.wanted = this.classes.map((resourceClass) => this.amounts[resourceClass] as number);
    this.columns = this.classes.map((resourceClass) => index.rootColumn(resourceClass));
    this.required = group.required ?? NO_GROUPS;
    this.forbidden = group.forbidden ?? NO_NAMES;
    this.memberOf = group.memberOf ?? NO_GROUPS;
    this.notMemberOf = group.notMemberOf ?? NO_NAMES;
    this.treeRoot =
      group.inTree === undefined ? undefined : (index.byUuid.get(group.inTree)?.rootUuid ?? null);
  }

  /** The search for this request's groups, or undefined when it is not the unsuffixed group alone. */
  static of(groups: readonly RequestGroup[], index: CandidateIndex): LoneTreeSearch | undefined {
    const only = groups.length === 1 ? groups[0] : undefined;
    if (only === undefined || only.suffix !== "" || Object.keys(only.resources).length === 0)
      return undefined;
    return new LoneTreeSearch(only, index);
  }

  /**
   * True when the root at `at` in `index.roots` (a lone tree) gives the
   * group now: the same rules as the general search's (`canProvideOne` per
   * class, traits and aggregates judged on the one provider).
   */
  admits(at: number, usage: ProviderUsage): boolean {
    const root = this.index.roots[at];
    if (root === undefined) return false;
    if (this.treeRoot !== undefined && this.treeRoot !== root.uuid) return false;
    const used = usage.get(root.uuid);
    for (let k = 0; k < this.classes.length; k++) {
      const column = this.columns[k] as RootColumn;
      const inventory = column.inventories[at];
      if (inventory === undefined) return false;
      const held = used?.[this.classes[k] as string] ?? 0;
      if (!fitsInventory(inventory, column.capacity[at] as number, held, this.wanted[k] as number))
        return false;
    }
    const { aggregates, traits } = root;
    if (!this.memberOf.every((anyOf) => intersects(aggregates, anyOf))) return false;
    if (intersects(aggregates, this.notMemberOf) || intersects(traits, this.forbidden)) return false;
    return this.required.every((anyOf) => intersects(traits, anyOf));
  }
}
