import { type Colors, colours } from "./colour.js";
import { csvRows } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { boxedTable, compactTable } from "./table.js";
import { toYaml } from "./yaml.js";

/** One column of a list: what a person reads, and the exact value for csv. */
export interface Column<T> {
  header: string;
  human: (row: T, colors: Colors) => string;
  /** Exact text for csv (sizes in base units); defaults to the human text without colour. */
  exact?: (row: T) => string | number | boolean;
}

/** A list to print: rows for tables/csv, and the API objects for json/yaml. */
export interface ListView<T> {
  columns: Column<T>[];
  rows: T[];
  /** What json/yaml print; the rows themselves when absent. */
  document?: unknown;
}

export function renderDocument(document: unknown, format: "json" | "yaml"): string {
  return format === "json" ? `${JSON.stringify(document, null, 2)}\n` : toYaml(document);
}

// csv never carries escapes, whatever the terminal.
const PLAIN = colours(false);

export function renderList<T>(view: ListView<T>, format: OutputFormat, colors: Colors): string {
  switch (format) {
    case "json":
    case "yaml":
      return renderDocument(view.document ?? view.rows, format);
    case "csv": {
      const rows = view.rows.map((row) =>
        view.columns.map((column) => String(column.exact ? column.exact(row) : column.human(row, PLAIN))),
      );
      return rows.length === 0 ? "" : `${csvRows(rows)}\n`;
    }
    case "table":
    case "compact": {
      const headers = view.columns.map((column) => colors.bold(column.header));
      const rows = view.rows.map((row) => view.columns.map((column) => column.human(row, colors)));
      return `${(format === "table" ? boxedTable : compactTable)(headers, rows)}\n`;
    }
  }
}

/** key: value lines for `info`-style output in table/compact formats. */
export function renderFields(fields: [string, string][], colors: Colors): string {
  return `${fields.map(([key, value]) => (value === "" ? colors.bold(`${key}:`) : `${colors.bold(`${key}:`)} ${value}`)).join("\n")}\n`;
}
