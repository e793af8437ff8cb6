/**
 * One catalog table (groups, projects, profiles, flavors, images, placement
 * groups, custom resource classes, Placement providers and traits) through drizzle. Writes run in one write
 * transaction that locks the row it changes and appends a change-feed entry
 * naming the table, so every server re-reads it before its next placement.
 * The rules of every write are the engine's (write-rules/catalog-records.ts):
 * this reads rows, calls them, and writes rows.
 */
import {
  type CatalogTable,
  type CatalogTableName,
  catalogEntry,
  checkCatalogCreate,
  checkCatalogDelete,
  checkCatalogUpdate,
  type RecordKey,
  requireCatalogRecord,
} from "@berth/engine";
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Pools, Tx } from "../connection/pools.js";
import { appendChanges } from "./feed-writes.js";

export interface CatalogSpec<T> {
  /** Which table this is: its label in messages (engine `CATALOG_LABELS`) and its feed entries. */
  feedName: CatalogTableName;
  table: PgTable;
  nameColumn: PgColumn;
  /** For project-scoped tables. */
  projectColumn?: PgColumn;
  keyOf(record: T): RecordKey;
  toRow?(record: T): Record<string, unknown>;
  fromRow?(row: Record<string, unknown>): T;
  /** Throws if the record refers to something missing (its table's rule in engine write-rules/catalog-references.ts). */
  validate?(tx: Tx, record: T): Promise<void>;
  /** Why the record is still referenced (its table's rule in engine write-rules/catalog-in-use.ts), or undefined. */
  inUse?(tx: Tx, key: RecordKey): Promise<string | undefined>;
}

export class PostgresCatalogTable<T extends object> implements CatalogTable<T> {
  constructor(
    private readonly pools: Pools,
    private readonly spec: CatalogSpec<T>,
    /** Runs after each committed write (the store wakes the other servers). */
    private readonly afterWrite: () => void = () => undefined,
  ) {}

  list(filter?: { project?: string }): Promise<T[]> {
    const { table, projectColumn, nameColumn } = this.spec;
    return this.pools.readTx(async (tx) => {
      const where =
        filter?.project !== undefined && projectColumn !== undefined
          ? eq(projectColumn, filter.project)
          : undefined;
      const order = projectColumn === undefined ? [asc(nameColumn)] : [asc(projectColumn), asc(nameColumn)];
      const rows = await tx.db
        .select()
        .from(table)
        .where(where)
        .orderBy(...order);
      return rows.map((row) => this.fromRow(row));
    });
  }

  get(key: RecordKey): Promise<T | undefined> {
    return this.pools.readTx((tx) => this.find(tx.db, key));
  }

  create(record: T): Promise<T> {
    return this.written(async (tx) => {
      const key = this.spec.keyOf(record);
      checkCatalogCreate(this.spec.feedName, key, (await this.find(tx.db, key)) !== undefined);
      await this.spec.validate?.(tx, record);
      await tx.db.insert(this.spec.table).values(this.toRow(record));
      await appendChanges(tx, [catalogEntry(this.spec.feedName)]);
      return (await this.find(tx.db, key))!;
    });
  }

  /** With `expected`, writes only while the row is still that version (locked, compared, written in one transaction). */
  update(record: T, expected?: T): Promise<T> {
    return this.written(async (tx) => {
      const key = this.spec.keyOf(record);
      checkCatalogUpdate(this.spec.feedName, key, await this.find(tx.db, key, true), expected);
      await this.spec.validate?.(tx, record);
      await tx.db.update(this.spec.table).set(this.toRow(record)).where(this.whereKey(key));
      await appendChanges(tx, [catalogEntry(this.spec.feedName)]);
      return (await this.find(tx.db, key))!;
    });
  }

  delete(key: RecordKey): Promise<void> {
    return this.written(async (tx) => {
      requireCatalogRecord(this.spec.feedName, key, await this.find(tx.db, key, true));
      checkCatalogDelete(this.spec.feedName, key, await this.spec.inUse?.(tx, key));
      await tx.db.delete(this.spec.table).where(this.whereKey(key));
      await appendChanges(tx, [catalogEntry(this.spec.feedName)]);
    });
  }

  private async written<R>(work: (tx: Tx) => Promise<R>): Promise<R> {
    const result = await this.pools.writeTx(work);
    this.afterWrite();
    return result;
  }

  /** The row by key; `forUpdate` locks it until the transaction ends. */
  private async find(db: NodePgDatabase, key: RecordKey, forUpdate = false): Promise<T | undefined> {
    const query = db.select().from(this.spec.table).where(this.whereKey(key)).limit(1);
    const [row] = forUpdate ? await query.for("update") : await query;
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
    return this.spec.fromRow?.(row) ?? (row as T);
  }
}
