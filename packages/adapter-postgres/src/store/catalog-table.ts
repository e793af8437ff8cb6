/**
 * One catalog table (@berth/sql-core's `CatalogRows`, whose writes call the
 * engine's rules) on PostgreSQL: each write is one write transaction that
 * locks the row it changes and appends a change-feed entry naming the
 * table, so every server re-reads it before its next placement.
 */
import type { CatalogTable, RecordKey } from "@berth/engine";
import { CatalogRows, type CatalogSpec } from "@berth/sql-core";
import type { Pools, Tx } from "../connection/pools.js";
import { appendChanges } from "./feed-writes.js";
import { txRunner } from "./runners.js";

export class PostgresCatalogTable<T extends object> implements CatalogTable<T> {
  readonly #rows: CatalogRows<T>;

  constructor(
    private readonly pools: Pools,
    spec: CatalogSpec<T>,
    /** Runs after each committed write (the store wakes the other servers). */
    private readonly afterWrite: () => void = () => undefined,
  ) {
    this.#rows = new CatalogRows(spec);
  }

  list(filter?: { project?: string }): Promise<T[]> {
    return this.pools.readTx((tx) => this.#rows.list(txRunner(tx), filter));
  }

  get(key: RecordKey): Promise<T | undefined> {
    return this.pools.readTx((tx) => this.#rows.find(txRunner(tx), key));
  }

  create(record: T): Promise<T> {
    return this.written((tx) =>
      this.#rows.create(txRunner(tx), record, (entries) => appendChanges(tx, entries)),
    );
  }

  /** With `expected`, writes only while the row is still that version (locked, compared, written in one transaction). */
  update(record: T, expected?: T): Promise<T> {
    return this.written((tx) =>
      this.#rows.update(txRunner(tx), record, expected, (entries) => appendChanges(tx, entries)),
    );
  }

  delete(key: RecordKey): Promise<void> {
    return this.written((tx) =>
      this.#rows.delete(txRunner(tx), key, (entries) => appendChanges(tx, entries)),
    );
  }

  private async written<R>(work: (tx: Tx) => Promise<R>): Promise<R> {
    const result = await this.pools.writeTx(work);
    this.afterWrite();
    return result;
  }
}
