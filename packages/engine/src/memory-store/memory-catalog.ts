/**
 * A keyed in-memory table for the memory store's catalog (groups, projects,
 * profiles, ...). Records are cloned on the way in and out so callers can
 * never mutate stored state behind the store's back. It reads its rows and
 * lets the write rules (rules/writes/catalog-records.ts) judge every write.
 */
import {
  catalogEntry,
  catalogKeyString,
  checkCatalogCreate,
  checkCatalogDelete,
  checkCatalogUpdate,
  requireCatalogRecord,
} from "../rules/writes/catalog-records.js";
import type { CatalogTableName, ChangeEntry } from "../store/change-feed.js";
import { cloneJson } from "../store/clone.js";
import type { CatalogTable, RecordKey } from "../store/port.js";

export interface MemoryCatalogOptions<T> {
  /** Which table this is (its label in messages, its feed entries). */
  table: CatalogTableName;
  keyOf(record: T): RecordKey;
  /** Why the record is still referenced (the table's rule in rules/writes/catalog-in-use.ts), or undefined. */
  inUse?(key: RecordKey): string | undefined;
  /** Throws if the record refers to something missing (the table's rule in rules/writes/catalog-references.ts). */
  validate?(record: T): void;
  /** Appends a committed write's feed entry. */
  log(entry: ChangeEntry): void;
}

export class MemoryCatalog<T extends object> implements CatalogTable<T> {
  private readonly rows = new Map<string, T>();

  constructor(private readonly options: MemoryCatalogOptions<T>) {}

  /** Synchronous access for the store's own referential checks. */
  values(): T[] {
    return [...this.rows.values()];
  }

  /** The stored row under a plain key, uncloned, for the store's own reads inside a write. */
  peek(key: string): T | undefined {
    return this.rows.get(key);
  }

  has(key: RecordKey): boolean {
    return this.rows.has(catalogKeyString(key));
  }

  /**
   * Rewrites a row without checks, for the store's own bookkeeping inside a
   * write it already checked (a consumer claim bumping provider generations).
   */
  replace(record: T, announce = true): void {
    this.rows.set(catalogKeyString(this.options.keyOf(record)), cloneJson(record));
    // A write that announces itself otherwise (a consumer claim's own feed entry) says so.
    if (announce) this.changed();
  }

  async list(filter?: { project?: string }): Promise<T[]> {
    return this.values()
      .filter((row) => filter?.project === undefined || this.options.keyOf(row).project === filter.project)
      .map((row) => cloneJson(row));
  }

  async get(key: RecordKey): Promise<T | undefined> {
    const row = this.rows.get(catalogKeyString(key));
    return row === undefined ? undefined : cloneJson(row);
  }

  async create(record: T): Promise<T> {
    const key = this.options.keyOf(record);
    checkCatalogCreate(this.options.table, key, this.has(key));
    this.options.validate?.(record);
    this.rows.set(catalogKeyString(key), cloneJson(record));
    this.changed();
    return cloneJson(record);
  }

  async update(record: T, expected?: T): Promise<T> {
    const key = this.options.keyOf(record);
    checkCatalogUpdate(this.options.table, key, this.rows.get(catalogKeyString(key)), expected);
    this.options.validate?.(record);
    this.rows.set(catalogKeyString(key), cloneJson(record));
    this.changed();
    return cloneJson(record);
  }

  async delete(key: RecordKey): Promise<void> {
    const id = catalogKeyString(key);
    requireCatalogRecord(this.options.table, key, this.rows.get(id));
    checkCatalogDelete(this.options.table, key, this.options.inUse?.(key));
    this.rows.delete(id);
    this.changed();
  }

  private changed(): void {
    this.options.log(catalogEntry(this.options.table));
  }
}
