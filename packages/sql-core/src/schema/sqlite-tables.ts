import type { BuildColumns, IsAutoincrement } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  type SQLiteBooleanBuilderInitial,
  type SQLiteColumn,
  type SQLiteIntegerBuilderInitial,
  type SQLiteRealBuilderInitial,
  type SQLiteTableWithColumns,
  type SQLiteTextBuilderInitial,
  type SQLiteTextJsonBuilderInitial,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { buildTables, type DialectBuilders } from "./build-table.js";
import type { BuilderOf } from "./builder-types.js";
import type { AnyColumnSpec } from "./column-spec.js";
import type { TableSpec } from "./table-spec.js";

interface SqliteBases {
  text: SQLiteTextBuilderInitial<"", [string, ...string[]], undefined>;
  int: SQLiteIntegerBuilderInitial<"">;
  int53: SQLiteIntegerBuilderInitial<"">;
  real: SQLiteRealBuilderInitial<"">;
  bool: SQLiteBooleanBuilderInitial<"">;
  json: SQLiteTextJsonBuilderInitial<"">;
  serial: IsAutoincrement<SQLiteIntegerBuilderInitial<"">>;
}

export type SqliteTableOf<S extends TableSpec> = SQLiteTableWithColumns<{
  name: S["name"];
  schema: undefined;
  columns: BuildColumns<
    S["name"],
    { [K in keyof S["columns"]]: BuilderOf<S["columns"][K], SqliteBases> },
    "sqlite"
  >;
  dialect: "sqlite";
}>;

function sqliteColumn(spec: AnyColumnSpec) {
  switch (spec.kind) {
    case "text":
      return spec.traits.enum === undefined ? text(spec.name) : text(spec.name, { enum: spec.traits.enum });
    case "int":
    case "int53":
      return integer(spec.name);
    case "real":
      return real(spec.name);
    case "bool":
      return integer(spec.name, { mode: "boolean" });
    case "json":
      return text(spec.name, { mode: "json" });
    case "serial":
      return integer(spec.name).primaryKey({ autoIncrement: true });
  }
}

const sqliteBuilders: DialectBuilders = {
  dialect: "sqlite",
  column: sqliteColumn,
  table: (name, columns, extra) => sqliteTable(name, columns as never, extra as never),
  primaryKey: (columns) => primaryKey({ columns: columns as [SQLiteColumn, ...SQLiteColumn[]] }),
  index: (spec, columns, where) => {
    const built = (spec.unique ? uniqueIndex : index)(spec.name).on(...(columns as [SQLiteColumn]));
    return where === undefined ? built : built.where(where);
  },
};

/** The shared tables as drizzle SQLite tables (what the SQLite adapter's schema exports). */
export function sqliteTables<T extends Record<string, TableSpec>>(
  specs: T,
): { [K in keyof T]: SqliteTableOf<T[K]> } {
  return buildTables(specs, sqliteBuilders) as { [K in keyof T]: SqliteTableOf<T[K]> };
}
