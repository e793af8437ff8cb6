import {
  type CatalogTable,
  type CatalogTableName,
  catalogEntry,
  catalogKeyString,
  checkCatalogCreate,
  checkCatalogDelete,
  checkCatalogUpdate,
  type RecordKey,
  requireCatalogRecord,
} from "@berth/engine";
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Connection, Database, Work } from "../connection/open-connection.js";
import { appendChanges } from "./feed-writes.js";
import { ReadCache } from "./read-cache.js";

/**
 * How one catalog record maps to one row. Most catalog tables store a record
 * as a row with the same field names, so `toRow`/`fromRow` default to the
 * identity; only key columns need naming. The rules of every write are the
 * engine's (write-rules/catalog-records.ts): this reads rows, calls them,
 * and writes rows.
 */
export interface CatalogSpec<T> {
  /** Which table this is: its label in messages (engine `CATALOG_LABELS`) and its feed entries. */
  feedName: CatalogTableName;
  table: SQLiteTable;
  nameColumn: SQLiteColumn;
  /** For project-scoped tables. */
  projectColumn?: SQLiteColumn;
  keyOf(record: T): RecordKey;
  toRow?(record: T): Record<string, unknown>;
  fromRow?(row: Record<string, unknown>): T;
  /** Throws if the record refers to something missing (its table's rule in engine write-rules/catalog-references.ts). */
  validate?(db: Database, record: T): Promise<void>;
  /** Why the record is still referenced (its table's rule in engine write-rules/catalog-in-use.ts), or undefined. */
  inUse?(db: Database, key: RecordKey): Promise<string | undefined>;
}

export class SqliteCatalogTable<T extends object> implements CatalogTable<T> {
  readonly #cache: ReadCache;

  constructor(
    private readonly connection: Connection,
    private readonly spec: CatalogSpec<T>,
  ) {
    this.#cache = new ReadCache(connection);
  }

  /** Served from memory while nothing changed the table (see ReadCache): placements read profiles every time. */
  list(filter?: { project?: string }): Promise<T[]> {
    return this.#cache.get(`list\u0000${filter?.project ?? ""}`, () => this.load(filter));
  }

  private load(filter?: { project?: string }): Promise<T[]> {
    const { table, projectColumn, nameColumn } = this.spec;
    return this.connection.read(async (db) => {
      const where =
        filter?.project !== undefined && projectColumn !== undefined
          ? eq(projectColumn, filter.project)
          : undefined;
      const order = projectColumn === undefined ? [asc(nameColumn)] : [asc(projectColumn), asc(nameColumn)];
      const rows = await db
        .select()
        .from(table)
        .where(where)
        .orderBy(...order);
      return rows.map((row) => this.fromRow(row));
    });
  }

  get(key: RecordKey): Promise<T | undefined> {
    return this.#cache.get(`get\u0000${catalogKeyString(key)}`, () =>
      this.connection.read((db) => this.find(db, key)),
    );
  }

  create(record: T): Promise<T> {
    return this.written(async (db, raw) => {
      const key = this.spec.keyOf(record);
      checkCatalogCreate(this.spec.feedName, key, (await this.find(db, key)) !== undefined);
      await this.spec.validate?.(db, record);
      await db.insert(this.spec.table).values(this.toRow(record));
      await appendChanges(raw, [catalogEntry(this.spec.feedName)]);
      return (await this.find(db, key))!;
    });
  }

  update(record: T, expected?: T): Promise<T> {
    return this.written(async (db, raw) => {
      const key = this.spec.keyOf(record);
      // Read and written in this one write transaction: nobody can change the row in between.
      checkCatalogUpdate(this.spec.feedName, key, await this.find(db, key), expected);
      await this.spec.validate?.(db, record);
      await db.update(this.spec.table).set(this.toRow(record)).where(this.whereKey(key));
      await appendChanges(raw, [catalogEntry(this.spec.feedName)]);
      return (await this.find(db, key))!;
    });
  }

  delete(key: RecordKey): Promise<void> {
    return this.written(async (db, raw) => {
      requireCatalogRecord(this.spec.feedName, key, await this.find(db, key));
      checkCatalogDelete(this.spec.feedName, key, await this.spec.inUse?.(db, key));
      await db.delete(this.spec.table).where(this.whereKey(key));
      await appendChanges(raw, [catalogEntry(this.spec.feedName)]);
    });
  }

  /** Drops cached reads after another writer of this connection changed the table (consumer claims bump providers). */
  forget(): void {
    this.#cache.invalidate();
  }

  /** A write to this table: the cached reads of it are dropped whether or not it committed. */
  private async written<R>(work: Work<R>): Promise<R> {
    try {
      return await this.connection.write(work);
    } finally {
      this.#cache.invalidate();
    }
  }

  private async find(db: Database, key: RecordKey): Promise<T | undefined> {
    const [row] = await db.select().from(this.spec.table).where(this.whereKey(key)).limit(1);
    return row === undefined ? undefined : this.fromRow(row);
  }

  private whereKey(key: RecordKey): SQL | undefined {
    const byName = eq(this.spec.nameColumn, key.name);
    return this.spec.projectColumn === undefined
      ? byName
      : and(eq(this.spec.projectColumn, key.project ?? "default"), byName);
  }

  private toRow(record: T): Record<string, unknown> {
    return this.spec.toRow?.(record) ?? { ...(record as Record<string, unknown>) };
  }

  private fromRow(row: Record<string, unknown>): T {
    // Rows of identity-mapped tables have exactly the record's fields.
    return this.spec.fromRow?.(row) ?? (row as T);
  }
}
