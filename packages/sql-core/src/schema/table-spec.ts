import type { Column, SQL } from "drizzle-orm";
import type { AnyColumnSpec } from "./column-spec.js";

export type SqlDialect = "sqlite" | "pg";

export type ColumnSpecs = Record<string, AnyColumnSpec>;

/** An index over columns named by their keys; `only` keeps it to one dialect. */
export interface IndexSpec<TKey extends string = string> {
  readonly name: string;
  readonly on: readonly [TKey, ...TKey[]];
  readonly unique?: boolean;
  /** A partial index's condition, over the built columns. */
  readonly where?: (columns: Record<TKey, Column>) => SQL;
  readonly only?: SqlDialect;
}

/**
 * One table for both dialects: its columns, the columns only PostgreSQL has
 * (`pgColumns`), the composite primary key and the indexes.
 */
export interface TableSpec<
  TName extends string = string,
  TColumns extends ColumnSpecs = ColumnSpecs,
  TPgColumns extends ColumnSpecs = ColumnSpecs,
> {
  readonly name: TName;
  readonly columns: TColumns;
  readonly pgColumns: TPgColumns;
  readonly primaryKey?: readonly string[];
  readonly indexes: readonly IndexSpec[];
}

type Key<T> = Extract<keyof T, string>;

export function table<
  TName extends string,
  TColumns extends ColumnSpecs,
  // biome-ignore lint/complexity/noBannedTypes: no PostgreSQL-only columns by default
  TPgColumns extends ColumnSpecs = {},
>(
  name: TName,
  columns: TColumns,
  keys: {
    pgColumns?: TPgColumns;
    primaryKey?: readonly Key<TColumns>[];
    indexes?: readonly IndexSpec<Key<TColumns> | Key<TPgColumns>>[];
  } = {},
): TableSpec<TName, TColumns, TPgColumns> {
  return {
    name,
    columns,
    pgColumns: keys.pgColumns ?? ({} as TPgColumns),
    ...(keys.primaryKey === undefined ? {} : { primaryKey: keys.primaryKey }),
    indexes: (keys.indexes ?? []) as readonly IndexSpec[],
  };
}
