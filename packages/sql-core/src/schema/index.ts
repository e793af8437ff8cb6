export { type AnyColumnSpec, type ColumnKind, ColumnSpec, column } from "./column-spec.js";
export { type PgTableOf, pgTables } from "./pg-tables.js";
export { type SqliteTableOf, sqliteTables } from "./sqlite-tables.js";
export { type ColumnSpecs, type IndexSpec, type SqlDialect, type TableSpec, table } from "./table-spec.js";
export * as sharedTableSpecs from "./tables.js";
