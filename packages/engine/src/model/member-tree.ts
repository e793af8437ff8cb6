/**
 * A member's provider tree, as Berth's own placements see it: the child
 * providers (NUMA nodes, GPUs, FPGAs, SR-IOV devices) created through the
 * Placement API under the member's root provider. A request that asks for
 * a class the member itself has no inventory of may take it from one of
 * them (one model, one ledger):
 *
 * - Where: a class the member (its root) has an inventory of is always
 *   taken from the root, as before; only a class the root lacks is looked
 *   for among its descendants.
 * - Which: of the descendants with an inventory of the class whose
 *   constraints (min_unit, max_unit, step_size) accept the amount and with
 *   room for it by Placement's formula ((total - reserved) *
 *   allocation_ratio, counting what they hold and in-flight placements),
 *   the one with the most room left, then the lowest uuid.
 * - Never split: one class of one request lands whole on one provider, as
 *   Placement allocates one class of a request group from one provider.
 *
 * What a descendant holds is what the engine's `ProviderModel` says its
 * consumers hold (an instance's rows on a child provider are stored as the
 * Placement consumer of the instance's uuid, rules/ledger/instance-consumers.ts),
 * plus what in-flight placements of this engine hold on it (`TreeHolds`).
 */
import { checkFit, type FitFailure, type Inventory, inventoryCapacity, noInventory } from "@berth/resources";

/** One descendant of a member's root that has inventories. */
export interface TreeProvider {
  readonly uuid: string;
  readonly inventories: Readonly<Record<string, Inventory>>;
}

const holdKey = (uuid: string, resourceClass: string) => `${uuid}\u0000${resourceClass}`;

/** In-flight placements' holds on tree providers, by provider and class; they outlive tree rebuilds. */
export class TreeHolds {
  private readonly held = new Map<string, number>();

  of(uuid: string, resourceClass: string): number {
    return this.held.get(holdKey(uuid, resourceClass)) ?? 0;
  }

  /** Drops every hold (a re-hydration re-applies the placements still in flight). */
  clear(): void {
    this.held.clear();
  }

  add(uuid: string, resourceClass: string, amount: number): void {
    const key = holdKey(uuid, resourceClass);
    const next = (this.held.get(key) ?? 0) + amount;
    if (next === 0) this.held.delete(key);
    else this.held.set(key, next);
  }
}

/** What consumers hold on a provider (the ProviderModel's sums), by class. */
export type ProviderUsed = (uuid: string) => Readonly<Record<string, number>> | undefined;

export class MemberTree {
  constructor(
    /** Descendants with inventories, in uuid order. */
    readonly providers: readonly TreeProvider[],
    private readonly used: ProviderUsed,
    private readonly holds: TreeHolds,
  ) {}

  /** What counts against a provider's class for a new placement: its consumers and in-flight holds. */
  consumed(uuid: string, resourceClass: string): number {
    return (this.used(uuid)?.[resourceClass] ?? 0) + this.holds.of(uuid, resourceClass);
  }

  /**
   * The provider `amount` of `resourceClass` goes to by the rule above, or
   * why none takes it: no inventory when none has the class, else the
   * refusal of the first (by uuid) that has it.
   */
  choose(resourceClass: string, amount: number): { uuid: string } | { refusal: FitFailure } {
    let best: { uuid: string; free: number } | undefined;
    let refusal: FitFailure | undefined;
    for (const provider of this.providers) {
      const inventory = provider.inventories[resourceClass];
      if (inventory === undefined) continue;
      const consumed = this.consumed(provider.uuid, resourceClass);
      const verdict = checkFit(resourceClass, inventory, consumed, amount);
      if (!verdict.ok) {
        refusal ??= verdict;
        continue;
      }
      const free = inventoryCapacity(inventory) - consumed;
      // Providers come in uuid order: a later one wins only with strictly more room.
      if (best === undefined || free > best.free) best = { uuid: provider.uuid, free };
    }
    if (best !== undefined) return { uuid: best.uuid };
    return { refusal: refusal ?? noInventory(resourceClass, amount) };
  }
}

/**
 * Where each class a member has no inventory of goes in its tree (class ->
 * provider uuid), by `MemberTree.choose`; undefined when nothing goes to a
 * child. `kept` (an edited instance's rows) keeps a class on the child that
 * holds it already. A class no child takes stays on the member, whose
 * claim then refuses it (the store's answer re-plans).
 */
export function childrenFor(
  member: {
    readonly inventories: Readonly<Record<string, Inventory>>;
    readonly tree: MemberTree | undefined;
  },
  resources: Readonly<Record<string, number>>,
  kept?: ReadonlyMap<string, string>,
): Record<string, string> | undefined {
  const tree = member.tree;
  let children: Record<string, string> | undefined;
  // for-in, not Object.entries: this runs for every placement, almost always to find nothing.
  for (const resourceClass in resources) {
    const amount = resources[resourceClass]!;
    if (amount === 0 || member.inventories[resourceClass] !== undefined) continue;
    const held = kept?.get(resourceClass);
    const choice = held !== undefined ? { uuid: held } : tree?.choose(resourceClass, amount);
    if (choice === undefined || !("uuid" in choice)) continue;
    children ??= {};
    children[resourceClass] = choice.uuid;
  }
  return children;
}
