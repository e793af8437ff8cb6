/**
 * A keyed in-memory table for the memory store's catalog (groups, projects,
 * profiles, ...). Records are cloned on the way in and out so callers can
 * never mutate stored state behind the store's back.
 */
import { conflict, notFound } from "../base/errors.js";
import { cloneJson } from "../store/clone.js";
import type { CatalogTable, RecordKey } from "../store/port.js";
import { recordChanged, sameVersion } from "../store/record-version.js";

export interface MemoryCatalogOptions<T> {
  /** Human name used in error messages, e.g. "Profile". */
  label: string;
  keyOf(record: T): RecordKey;
  /** Returns a reason the record is still referenced, or undefined if it may go. */
  inUse?(key: RecordKey): string | undefined;
  /** Throws if the record refers to something missing (e.g. its project). */
  validate?(record: T): void;
  /** Called after every committed create, update or delete (the store's change counter). */
  changed?(): void;
}

export function keyString(key: RecordKey): string {
  return key.project === undefined ? key.name : `${key.project}/${key.name}`;
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
    return this.rows.has(keyString(key));
  }

  /**
   * Rewrites a row without checks, for the store's own bookkeeping inside a
   * write it already checked (a consumer claim bumping provider generations).
   */
  replace(record: T, announce = true): void {
    this.rows.set(keyString(this.options.keyOf(record)), cloneJson(record));
    // A write that announces itself otherwise (a consumer claim's own feed entry) says so.
    if (announce) this.options.changed?.();
  }

  async list(filter?: { project?: string }): Promise<T[]> {
    return this.values()
      .filter((row) => filter?.project === undefined || this.options.keyOf(row).project === filter.project)
      .map((row) => cloneJson(row));
  }

  async get(key: RecordKey): Promise<T | undefined> {
    const row = this.rows.get(keyString(key));
    return row === undefined ? undefined : cloneJson(row);
  }

  async create(record: T): Promise<T> {
    const key = keyString(this.options.keyOf(record));
    if (this.rows.has(key)) throw conflict(`${this.options.label} "${key}" already exists`);
    this.options.validate?.(record);
    this.rows.set(key, cloneJson(record));
    this.options.changed?.();
    return cloneJson(record);
  }

  async update(record: T, expected?: T): Promise<T> {
    const key = keyString(this.options.keyOf(record));
    const stored = this.rows.get(key);
    if (stored === undefined) throw notFound(`${this.options.label} "${key}" not found`);
    if (expected !== undefined && !sameVersion(stored, expected))
      throw recordChanged(this.options.label, key);
    this.options.validate?.(record);
    this.rows.set(key, cloneJson(record));
    this.options.changed?.();
    return cloneJson(record);
  }

  async delete(key: RecordKey): Promise<void> {
    const id = keyString(key);
    if (!this.rows.has(id)) throw notFound(`${this.options.label} "${id}" not found`);
    const reason = this.options.inUse?.(key);
    if (reason !== undefined) throw conflict(`${this.options.label} "${id}" is in use: ${reason}`);
    this.rows.delete(id);
    this.options.changed?.();
  }
}
