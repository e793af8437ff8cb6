import {
  type CatalogTableName,
  type ChangeEntry,
  catalogEntry,
  checkCatalogCreate,
  checkCatalogDelete,
  checkCatalogUpdate,
  type RecordKey,
  requireCatalogRecord,
} from "@berth/engine";
import { rowLock } from "../runner/row-locks.js";
import { first, type SqlParam, type SqlRunner } from "../runner/runner.js";
import type { TableSpec } from "../schema/table-spec.js";
import { decodeRow, encodeRow, selectColumns } from "./row-codec.js";

/**
 * How one catalog record maps to one row of a described table. Most tables
 * store a record as a row with the same field names (the column keys), so
 * `toRow`/`fromRow` default to the identity. The rules of every write are
 * the engine's (write-rules/catalog-records.ts): this reads rows, calls
 * them, and writes rows.
 */
export interface CatalogSpec<T> {
  /** Which table this is: its label in messages (engine `CATALOG_LABELS`) and its feed entries. */
  feedName: CatalogTableName;
  table: TableSpec;
  /** The key of the column holding the record's name (and of its project, for project-scoped tables). */
  nameKey: string;
  projectKey?: string;
  keyOf(record: T): RecordKey;
  toRow?(record: T): Record<string, unknown>;
  fromRow?(row: Record<string, unknown>): T;
  /** Throws if the record refers to something missing (its table's rule in engine write-rules/catalog-references.ts). */
  validate?(db: SqlRunner, record: T): Promise<void>;
  /** Why the record is still referenced (its table's rule in engine write-rules/catalog-in-use.ts), or undefined. */
  inUse?(db: SqlRunner, key: RecordKey): Promise<string | undefined>;
}

/** Appends change-feed entries in the writing transaction (each adapter's own way). */
export type AppendChanges = (entries: ChangeEntry[]) => Promise<void>;

/** One catalog table's reads and writes over a runner; the adapter supplies the transactions and caches. */
export class CatalogRows<T extends object> {
  readonly #select: string;
  readonly #name: string;
  readonly #project: string | undefined;

  constructor(readonly spec: CatalogSpec<T>) {
    const column = (key: string) => {
      const found = spec.table.columns[key];
      if (found === undefined) throw new Error(`table ${spec.table.name} has no column ${key}`);
      return found.name;
    };
    this.#select = `SELECT ${selectColumns(spec.table)} FROM ${spec.table.name}`;
    this.#name = column(spec.nameKey);
    this.#project = spec.projectKey === undefined ? undefined : column(spec.projectKey);
  }

  /** By project then name (of one project when asked). */
  async list(db: SqlRunner, filter?: { project?: string }): Promise<T[]> {
    const byProject = filter?.project !== undefined && this.#project !== undefined;
    const order = this.#project === undefined ? this.#name : `${this.#project}, ${this.#name}`;
    const rows = await db.all(
      `${this.#select}${byProject ? ` WHERE ${this.#project} = ?` : ""} ORDER BY ${order}`,
      byProject ? [filter.project as string] : [],
    );
    return rows.map((row) => this.fromRow(row));
  }

  /** The record by key; `forUpdate` locks its row until the transaction ends where the dialect has row locks. */
  async find(db: SqlRunner, key: RecordKey, forUpdate = false): Promise<T | undefined> {
    const { where, params } = this.whereKey(key);
    const lock = forUpdate ? rowLock(db, "FOR UPDATE") : "";
    const row = await first(db, `${this.#select} WHERE ${where}${lock}`, params);
    return row === undefined ? undefined : this.fromRow(row);
  }

  async create(db: SqlRunner, record: T, append: AppendChanges): Promise<T> {
    const key = this.spec.keyOf(record);
    checkCatalogCreate(this.spec.feedName, key, (await this.find(db, key)) !== undefined);
    await this.spec.validate?.(db, record);
    const { columns, params } = encodeRow(this.spec.table, this.toRow(record));
    await db.run(
      `INSERT INTO ${this.spec.table.name} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      params,
    );
    await append([catalogEntry(this.spec.feedName)]);
    return (await this.find(db, key))!;
  }

  /** With `expected`, writes only while the row is still that version (read, compared and written in one transaction). */
  async update(db: SqlRunner, record: T, expected: T | undefined, append: AppendChanges): Promise<T> {
    const key = this.spec.keyOf(record);
    checkCatalogUpdate(this.spec.feedName, key, await this.find(db, key, true), expected);
    await this.spec.validate?.(db, record);
    const { columns, params } = encodeRow(this.spec.table, this.toRow(record));
    const { where, params: keyParams } = this.whereKey(key);
    await db.run(
      `UPDATE ${this.spec.table.name} SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE ${where}`,
      [...params, ...keyParams],
    );
    await append([catalogEntry(this.spec.feedName)]);
    return (await this.find(db, key))!;
  }

  async delete(db: SqlRunner, key: RecordKey, append: AppendChanges): Promise<void> {
    requireCatalogRecord(this.spec.feedName, key, await this.find(db, key, true));
    checkCatalogDelete(this.spec.feedName, key, await this.spec.inUse?.(db, key));
    const { where, params } = this.whereKey(key);
    await db.run(`DELETE FROM ${this.spec.table.name} WHERE ${where}`, params);
    await append([catalogEntry(this.spec.feedName)]);
  }

  private whereKey(key: RecordKey): { where: string; params: SqlParam[] } {
    return this.#project === undefined
      ? { where: `${this.#name} = ?`, params: [key.name] }
      : { where: `${this.#project} = ? AND ${this.#name} = ?`, params: [key.project ?? "default", key.name] };
  }

  private toRow(record: T): Record<string, unknown> {
    return this.spec.toRow?.(record) ?? { ...(record as Record<string, unknown>) };
  }

  private fromRow(row: Record<string, unknown>): T {
    const decoded = decodeRow(this.spec.table, row);
    // Rows of identity-mapped tables have exactly the record's fields.
    return this.spec.fromRow?.(decoded) ?? (decoded as T);
  }
}
