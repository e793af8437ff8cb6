import type { BuildColumns } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  type PgBigInt53BuilderInitial,
  type PgBigSerial53BuilderInitial,
  type PgBooleanBuilderInitial,
  type PgColumn,
  type PgDoublePrecisionBuilderInitial,
  type PgIntegerBuilderInitial,
  type PgJsonbBuilderInitial,
  type PgTableWithColumns,
  type PgTextBuilderInitial,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { buildTables, type DialectBuilders } from "./build-table.js";
import type { BuilderOf } from "./builder-types.js";
import type { AnyColumnSpec } from "./column-spec.js";
import type { TableSpec } from "./table-spec.js";

interface PgBases {
  text: PgTextBuilderInitial<"", [string, ...string[]]>;
  int: PgIntegerBuilderInitial<"">;
  int53: PgBigInt53BuilderInitial<"">;
  real: PgDoublePrecisionBuilderInitial<"">;
  bool: PgBooleanBuilderInitial<"">;
  json: PgJsonbBuilderInitial<"">;
  serial: PgBigSerial53BuilderInitial<"">;
}

type PgColumnsOf<S extends TableSpec> = S["columns"] & S["pgColumns"];

export type PgTableOf<S extends TableSpec> = PgTableWithColumns<{
  name: S["name"];
  schema: undefined;
  columns: BuildColumns<
    S["name"],
    { [K in keyof PgColumnsOf<S>]: BuilderOf<PgColumnsOf<S>[K], PgBases> },
    "pg"
  >;
  dialect: "pg";
}>;

function pgColumn(spec: AnyColumnSpec) {
  switch (spec.kind) {
    case "text":
      return spec.traits.enum === undefined ? text(spec.name) : text(spec.name, { enum: spec.traits.enum });
    case "int":
      return integer(spec.name);
    case "int53":
      return bigint(spec.name, { mode: "number" });
    case "real":
      return doublePrecision(spec.name);
    case "bool":
      return boolean(spec.name);
    case "json":
      return jsonb(spec.name);
    case "serial":
      return bigserial(spec.name, { mode: "number" }).primaryKey();
  }
}

const pgBuilders: DialectBuilders = {
  dialect: "pg",
  column: pgColumn,
  table: (name, columns, extra) => pgTable(name, columns as never, extra as never),
  primaryKey: (columns) => primaryKey({ columns: columns as [PgColumn, ...PgColumn[]] }),
  index: (spec, columns, where) => {
    const built = (spec.unique ? uniqueIndex : index)(spec.name).on(...(columns as [PgColumn]));
    return where === undefined ? built : built.where(where);
  },
};

/** The shared tables as drizzle PostgreSQL tables (what the PostgreSQL adapter's schema exports). */
export function pgTables<T extends Record<string, TableSpec>>(specs: T): { [K in keyof T]: PgTableOf<T[K]> } {
  return buildTables(specs, pgBuilders) as { [K in keyof T]: PgTableOf<T[K]> };
}
