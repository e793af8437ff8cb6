/**
 * The engine's in-memory model of Placement's providers: the provider rows
 * and what consumers hold on each, read from the Store once and then kept
 * in step by the change feed (feed/feed-sync.ts): a consumer claim's entry
 * adds its usage changes and bumps the generations it bumped, a change of
 * the providers, traits or resource classes tables drops the rows to be
 * read again. Allocation candidates and provider listings are answered
 * from it, not by a query per request; claims stay authoritative in the
 * Store (a stale model can cost a refused claim, never an overcommit).
 */
import { addToLedger } from "../claim-rules/usage-after.js";
import type { ClaimEffect } from "../store/change-feed.js";
import type { Store, StoreSnapshot } from "../store/port.js";
import type { ProviderRecord } from "../store/records.js";

export class ProviderModel {
  /** Provider rows by uuid, in creation order; null: read again. */
  private rows: Map<string, ProviderRecord> | null = null;
  /** Consumers' used amounts by provider uuid and class. */
  private used = new Map<string, Record<string, number>>();
  /** Moves with every change of the rows, so a read that raced one is not kept. */
  private version = 0;

  /** Moves when the rows are to be read again (hydration, a provider table change): members' trees are rebuilt then. */
  private rowsMoves = 0;
  get rowsRevision(): number {
    return this.rowsMoves;
  }

  /** Starts from a snapshot (start-up, re-hydration). */
  hydrate(snapshot: Pick<StoreSnapshot, "consumerUsage">): void {
    this.rows = null;
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
    this.rowsMoves += 1;
    this.version += 1;
  }

  /** A consumer claim's feed entry: its usage changes and the generations it wrote. */
  applyConsumers(effect: ClaimEffect, bumped: readonly (readonly [string, number])[]): void {
    this.version += 1;
    if (this.rows !== null) {
      for (const [uuid, generation] of bumped) {
        const row = this.rows.get(uuid);
        if (row !== undefined && row.generation < generation) this.rows.set(uuid, { ...row, generation });
      }
    }
    for (const [provider, resourceClass, , amount] of effect.usage) {
      const ledger = this.used.get(provider) ?? {};
      addToLedger(ledger, resourceClass, amount);
      if (Object.keys(ledger).length === 0) this.used.delete(provider);
      else this.used.set(provider, ledger);
    }
  }

  /** Every provider row, in creation order (shared objects: callers never change them). */
  async providers(store: Store): Promise<ProviderRecord[]> {
    if (this.rows === null) {
      const version = this.version;
      const read = (await store.providers.list()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const rows = new Map(read.map((row) => [row.uuid, row]));
      if (version !== this.version) return [...rows.values()];
      this.rows = rows;
    }
    return [...this.rows.values()];
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
