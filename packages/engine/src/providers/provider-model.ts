/**
 * The engine's in-memory model of Placement's providers: the provider rows
 * and what consumers hold on each, read from the Store once and then kept
 * in step by the change feed (runtime/feed-sync.ts): a consumer claim's entry
 * adds its usage changes and bumps the generations it bumped, a change of
 * the providers, traits or resource classes tables drops the rows to be
 * read again. Allocation candidates and provider listings are answered
 * from it, not by a query per request; claims stay authoritative in the
 * Store (a stale model can cost a refused claim, never an overcommit).
 */
import { addToLedger } from "../rules/claims/usage-after.js";
import type { ClaimEffect } from "../store/change-feed.js";
import type { Store, StoreSnapshot } from "../store/port.js";
import type { ProviderRecord } from "../store/records.js";

export class ProviderModel {
  /** Provider rows by uuid, in creation order; null: read again. */
  private rows: Map<string, ProviderRecord> | null = null;
  /**
   * The rows as one array, built once per change of the rows: its identity
   * says "nothing changed" to the views built over it (provider-view.ts).
   */
  private list: readonly ProviderRecord[] | null = null;
  /** Consumers' used amounts by provider uuid and class. */
  private used = new Map<string, Record<string, number>>();
  /** Moves with every change of the rows, so a read that raced one is not kept. */
  private version = 0;
  /**
   * Moves when the rows are to be read again (hydration, a provider table
   * change), never on a claim's generation bump: members' trees are rebuilt
   * then, and what the provider view derives from the rows' shape (trees,
   * inventories, traits, aggregates: provider-view.ts) holds while it does
   * not move.
   */
  private rowsMoves = 0;
  get rowsRevision(): number {
    return this.rowsMoves;
  }

  /** Starts from a snapshot (start-up, re-hydration). */
  hydrate(snapshot: Pick<StoreSnapshot, "consumerUsage">): void {
    this.rows = null;
    this.list = null;
    this.rowsMoves += 1;
    this.version += 1;
    this.used = new Map();
    for (const [provider, resourceClass, amount] of snapshot.consumerUsage ?? []) {
      const ledger = this.used.get(provider) ?? {};
      addToLedger(ledger, resourceClass, amount);
      if (Object.keys(ledger).length > 0) this.used.set(provider, ledger);
    }
  }

  /** The provider tables changed: read the rows again. */
  forget(): void {
    this.rows = null;
    this.list = null;
    this.rowsMoves += 1;
    this.version += 1;
  }

  /** A consumer claim's feed entry: its usage changes and the generations it wrote. */
  applyConsumers(effect: ClaimEffect, bumped: readonly (readonly [string, number])[]): void {
    this.version += 1;
    if (this.rows !== null) {
      for (const [uuid, generation] of bumped) {
        const row = this.rows.get(uuid);
        if (row === undefined || row.generation >= generation) continue;
        this.rows.set(uuid, { ...row, generation });
        this.list = null;
      }
    }
    for (const [provider, resourceClass, , amount] of effect.usage) {
      const ledger = this.used.get(provider) ?? {};
      addToLedger(ledger, resourceClass, amount);
      if (Object.keys(ledger).length === 0) this.used.delete(provider);
      else this.used.set(provider, ledger);
    }
  }

  /**
   * Every provider row, in creation order: the same array until a row
   * changes (shared objects: callers never change them).
   */
  async providers(store: Store): Promise<readonly ProviderRecord[]> {
    if (this.rows === null) {
      const version = this.version;
      const read = (await store.providers.list()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      if (version !== this.version) return read;
      this.rows = new Map(read.map((row) => [row.uuid, row]));
      this.list = read;
    }
    this.list ??= [...this.rows.values()];
    return this.list;
  }

  /** One row: from the model when it has the rows, else read alone (creating many providers stays linear). */
  async provider(store: Store, uuid: string): Promise<ProviderRecord | undefined> {
    if (this.rows !== null) return this.rows.get(uuid);
    return store.providers.get({ name: uuid });
  }

  /** What consumers hold, by provider uuid and class. */
  consumersUsed(): ReadonlyMap<string, Readonly<Record<string, number>>> {
    return this.used;
  }
}
