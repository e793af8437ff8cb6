import { type CatalogTable, catalogKeyString, type RecordKey } from "@berth/engine";
import { CatalogRows, type CatalogSpec, type SqlRunner, sqliteRunner } from "@berth/sql-core";
import type { Connection, RawSql } from "../connection/open-connection.js";
import { appendChanges } from "./feed-writes.js";
import { ReadCache } from "./read-cache.js";

/**
 * One catalog table (@berth/sql-core's `CatalogRows`, whose writes call the
 * engine's rules) on this store's connection: each write is one write
 * transaction that appends the table's change-feed entry, and reads are
 * served from memory while nothing changed the table (see ReadCache):
 * placements read profiles every time.
 */
export class SqliteCatalogTable<T extends object> implements CatalogTable<T> {
  readonly #cache: ReadCache;
  readonly #rows: CatalogRows<T>;

  constructor(
    private readonly connection: Connection,
    spec: CatalogSpec<T>,
  ) {
    this.#cache = new ReadCache(connection);
    this.#rows = new CatalogRows(spec);
  }

  list(filter?: { project?: string }): Promise<T[]> {
    return this.#cache.get(`list\u0000${filter?.project ?? ""}`, () =>
      this.read((db) => this.#rows.list(db, filter)),
    );
  }

  get(key: RecordKey): Promise<T | undefined> {
    return this.#cache.get(`get\u0000${catalogKeyString(key)}`, () =>
      this.read((db) => this.#rows.find(db, key)),
    );
  }

  create(record: T): Promise<T> {
    return this.written((db, raw) => this.#rows.create(db, record, (entries) => appendChanges(raw, entries)));
  }

  update(record: T, expected?: T): Promise<T> {
    return this.written((db, raw) =>
      this.#rows.update(db, record, expected, (entries) => appendChanges(raw, entries)),
    );
  }

  delete(key: RecordKey): Promise<void> {
    return this.written((db, raw) => this.#rows.delete(db, key, (entries) => appendChanges(raw, entries)));
  }

  /** Drops cached reads after another writer of this connection changed the table (consumer claims bump providers). */
  forget(): void {
    this.#cache.invalidate();
  }

  private read<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    return this.connection.read((_db, raw) => work(sqliteRunner(raw)));
  }

  /** A write to this table: the cached reads of it are dropped whether or not it committed. */
  private async written<R>(work: (db: SqlRunner, raw: RawSql) => Promise<R>): Promise<R> {
    try {
      return await this.connection.write((_db, raw) => work(sqliteRunner(raw), raw));
    } finally {
      this.#cache.invalidate();
    }
  }
}
