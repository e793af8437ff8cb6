import type { Column, SQL } from "drizzle-orm";
import type { AnyColumnSpec } from "./column-spec.js";
import type { IndexSpec, SqlDialect, TableSpec } from "./table-spec.js";

/** What both dialects' drizzle column builders can do, as far as a spec asks. */
interface TraitBuilder {
  notNull(): unknown;
  default(value: unknown): unknown;
  primaryKey(): unknown;
  unique(): unknown;
  references(ref: () => Column, actions: object): unknown;
}

/** Both dialects' table-level builders, as far as a spec asks. */
export interface DialectBuilders {
  readonly dialect: SqlDialect;
  /** A column of the spec's kind, before its traits. */
  column(spec: AnyColumnSpec): TraitBuilder;
  table(
    name: string,
    columns: Record<string, unknown>,
    extra: (t: Record<string, Column>) => unknown[],
  ): unknown;
  primaryKey(columns: Column[]): unknown;
  index(spec: IndexSpec, columns: Column[], where: SQL | undefined): unknown;
}

/**
 * Builds drizzle tables from specs with one dialect's builders. References
 * resolve lazily (drizzle calls them when it reads the foreign keys), so a
 * table may name itself or one built later.
 */
export function buildTables(
  specs: Record<string, TableSpec>,
  builders: DialectBuilders,
): Record<string, unknown> {
  const built = new Map<AnyColumnSpec, Column>();
  const resolve = (spec: AnyColumnSpec): Column => {
    const found = built.get(spec);
    if (found === undefined)
      throw new Error(`column ${spec.name} is referenced but belongs to no built table`);
    return found;
  };
  const tables: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const columnSpecs = builders.dialect === "pg" ? { ...spec.columns, ...spec.pgColumns } : spec.columns;
    const columns: Record<string, unknown> = {};
    for (const [name, columnSpec] of Object.entries(columnSpecs)) {
      columns[name] = withTraits(builders.column(columnSpec), columnSpec, resolve);
    }
    const table = builders.table(spec.name, columns, (t) => [
      ...(spec.primaryKey === undefined ? [] : [builders.primaryKey(spec.primaryKey.map((k) => at(t, k)))]),
      ...spec.indexes
        .filter((index) => index.only === undefined || index.only === builders.dialect)
        .map((index) =>
          builders.index(
            index,
            index.on.map((k) => at(t, k)),
            index.where?.(t),
          ),
        ),
    ]);
    for (const name of Object.keys(columnSpecs)) {
      built.set(columnSpecs[name] as AnyColumnSpec, (table as Record<string, Column>)[name] as Column);
    }
    tables[key] = table;
  }
  return tables;
}

function at(columns: Record<string, Column>, key: string): Column {
  const found = columns[key];
  if (found === undefined) throw new Error(`no column ${key}`);
  return found;
}

function withTraits(
  builder: TraitBuilder,
  spec: AnyColumnSpec,
  resolve: (spec: AnyColumnSpec) => Column,
): unknown {
  const { traits } = spec;
  if (traits.primaryKey && spec.kind !== "serial") builder.primaryKey();
  if (traits.notNull && !traits.primaryKey) builder.notNull();
  if (traits.unique) builder.unique();
  if ("default" in traits) builder.default(traits.default);
  const reference = traits.references;
  if (reference !== undefined) {
    const { target, ...actions } = reference;
    builder.references(() => resolve(target()), actions);
  }
  return builder;
}
