import { type CatalogTable, catalogKeyString, type RecordKey } from "@berth/engine";
import { CatalogRows, type CatalogSpec } from "../catalogs/catalog-rows.js";
import { type CatalogRecords, catalogSpecs } from "../catalogs/catalog-specs.js";
import type { MemberSide } from "../members/member-side.js";
import type { SqlRunner } from "../runner/runner.js";
import { NO_MEMO, type ReadMemo, type SqlTransactions } from "./transactions.js";

/**
 * One catalog table (`CatalogRows`, whose writes call the engine's rules) on
 * an adapter's transactions: each write is one write transaction that
 * appends the table's change-feed entry, and reads may be kept (`memo`,
 * SQLite: placements read profiles every time) until a write.
 */
export class SqlCatalogTable<T extends object> implements CatalogTable<T> {
  readonly #rows: CatalogRows<T>;

  constructor(
    private readonly tx: SqlTransactions,
    spec: CatalogSpec<T>,
    private readonly memo: ReadMemo = NO_MEMO,
  ) {
    this.#rows = new CatalogRows(spec);
  }

  list(filter?: { project?: string }): Promise<T[]> {
    return this.memo.get(`list\u0000${filter?.project ?? ""}`, () =>
      this.tx.read((db) => this.#rows.list(db, filter)),
    );
  }

  get(key: RecordKey): Promise<T | undefined> {
    return this.memo.get(`get\u0000${catalogKeyString(key)}`, () =>
      this.tx.read((db) => this.#rows.find(db, key)),
    );
  }

  create(record: T): Promise<T> {
    return this.written((db, side) => this.#rows.create(db, record, side.append));
  }

  /** With `expected`, writes only while the row is still that version (compared and written in one transaction). */
  update(record: T, expected?: T): Promise<T> {
    return this.written((db, side) => this.#rows.update(db, record, expected, side.append));
  }

  delete(key: RecordKey): Promise<void> {
    return this.written((db, side) => this.#rows.delete(db, key, side.append));
  }

  /** Drops kept reads after another writer changed the table (consumer claims bump providers). */
  forget(): void {
    this.memo.forget();
  }

  /** A write to this table: kept reads of it are dropped whether or not it committed. */
  private async written<R>(work: (db: SqlRunner, side: MemberSide) => Promise<R>): Promise<R> {
    try {
      return await this.tx.write(work);
    } finally {
      this.memo.forget();
    }
  }
}

/** Every catalog table of the Store port. */
export type SqlCatalogs = { [K in keyof CatalogRecords]: SqlCatalogTable<CatalogRecords[K]> };

/** Every catalog table (rows and rules: `catalogSpecs`) on `tx`, each with its own `memo()`. */
export function sqlCatalogs(tx: SqlTransactions, memo: () => ReadMemo = () => NO_MEMO): SqlCatalogs {
  const entries = Object.entries(catalogSpecs).map(([name, spec]) => [
    name,
    new SqlCatalogTable(tx, spec as CatalogSpec<object>, memo()),
  ]);
  return Object.fromEntries(entries) as SqlCatalogs;
}
