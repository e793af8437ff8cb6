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
import type { ProviderRecord } from "../store/records.js";
import type { CandidateIndex, RootColumn } from "./candidate-index.js";
import { fitsInventory, intersects, type ProviderUsage } from "./filter.js";
import type { RequestGroup } from "./request-group.js";

const NO_NAMES: readonly string[] = [];
const NO_GROUPS: readonly (readonly string[])[] = [];

/** A lone root's candidate: the root alone gives the group's amounts (a `Candidate` of candidates.ts). */
export interface LoneCandidate {
  allocations: Record<string, Readonly<Record<string, number>>>;
  mappings: Record<string, string[]>;
}

/** The candidates built for one set of amounts, per root (aligned with the index's roots). */
interface Built {
  amounts: Readonly<Record<string, number>>;
  candidates: (LoneCandidate | undefined)[];
}

/** How many different amounts an index keeps the candidates of: a scheduler asks a few flavors over and over. */
const AMOUNTS_KEPT = 4;

/**
 * Lone roots' candidates already built, per index (they hold while its
 * rows do) and amounts asked, the most recent few. Asking the same amounts
 * again builds no candidate object: at 1,000 roots an answer's 4,000 small
 * objects were alive when the young generation was collected and got
 * promoted, and collecting them was a third of the full list's CPU
 * (2026-11-29). Candidates are shared between answers and never changed.
 */
const builtPerIndex = new WeakMap<CandidateIndex, Map<string, Built>>();

function builtFor(index: CandidateIndex, resources: Readonly<Record<string, number>>): Built {
  const key = Object.keys(resources)
    .map((resourceClass) => `${resourceClass}:${resources[resourceClass]}`)
    .join(",");
  let kept = builtPerIndex.get(index);
  if (kept === undefined) {
    kept = new Map();
    builtPerIndex.set(index, kept);
  }
  const found = kept.get(key);
  // Map order is insertion order: the most recently asked amounts go last, the oldest are dropped first.
  kept.delete(key);
  const built = found ?? { amounts: { ...resources }, candidates: new Array(index.roots.length) };
  kept.set(key, built);
  if (kept.size > AMOUNTS_KEPT) kept.delete(kept.keys().next().value as string);
  return built;
}

/** The unsuffixed group's test of a lone root, set up once per request. */
export class LoneTreeSearch {
  /** The group's amounts by class, in request order: shared by every candidate built for them, never changed. */
  readonly amounts: Readonly<Record<string, number>>;
  private readonly built: (LoneCandidate | undefined)[];
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
    const built = builtFor(index, group.resources);
    this.amounts = built.amounts;
    this.built = built.candidates;
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

  /** The candidate of the root at `at` (a lone tree that `admits`): built once per amounts while the index holds. */
  candidate(at: number): LoneCandidate {
    const kept = this.built[at];
    if (kept !== undefined) return kept;
    const { uuid } = this.index.roots[at] as ProviderRecord;
    // A record without prototype takes the uuid as a hash entry: an object literal keyed by each
    // uuid made V8 derive a new shape per provider (4x the time of the whole loop otherwise).
    const allocations: LoneCandidate["allocations"] = Object.create(null);
    allocations[uuid] = this.amounts;
    const made = { allocations, mappings: { "": [uuid] } };
    this.built[at] = made;
    return made;
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
