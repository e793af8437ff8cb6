import type { SqlParam, SqlRow } from "../runner/runner.js";
import { boolValue, jsonParam, jsonValue } from "../runner/values.js";
import type { TableSpec } from "../schema/table-spec.js";

/*
 * Rows of a described table read and written by their column keys (the
 * record's field names), each value coded by its column's kind: how a
 * catalog record becomes a row and back in either dialect.
 */

/** `name AS "name", project_id AS "projectId", ...`: a row keyed like the record. */
export function selectColumns(table: TableSpec): string {
  return Object.entries(table.columns)
    .map(([key, column]) => `${column.name} AS "${key}"`)
    .join(", ");
}

/** The row's values by key, decoded by kind (JSON parsed, booleans as booleans). */
export function decodeRow(table: TableSpec, row: SqlRow): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(table.columns)) {
    const value = row[key];
    decoded[key] =
      value === null || value === undefined
        ? null
        : column.kind === "json"
          ? jsonValue(value)
          : column.kind === "bool"
            ? boolValue(value)
            : value;
  }
  return decoded;
}

/** The columns and bound values of a row given by key (keys not in the table are an error). */
export function encodeRow(
  table: TableSpec,
  row: Record<string, unknown>,
): { columns: string[]; params: SqlParam[] } {
  const columns: string[] = [];
  const params: SqlParam[] = [];
  for (const [key, value] of Object.entries(row)) {
    const column = table.columns[key];
    if (column === undefined) throw new Error(`table ${table.name} has no column ${key}`);
    columns.push(column.name);
    params.push(
      value === null || value === undefined
        ? null
        : column.kind === "json"
          ? jsonParam(value)
          : (value as SqlParam),
    );
  }
  return { columns, params };
}
