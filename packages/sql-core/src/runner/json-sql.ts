import type { SqlRunner } from "./runner.js";

/**
 * JSON built inside the database, said in each dialect's words. Whole
 * records (members, instances) and start-up aggregates come back as ONE
 * JSON document: the drivers turn every result row into an object property
 * by property, which at 10,000 members costs seconds, while one string
 * parsed by V8 costs milliseconds (PostgreSQL: one value, one round trip).
 * Aggregates take their order inside (`ORDER BY` in the aggregate: SQLite
 * >= 3.44, every supported PostgreSQL).
 */
export interface JsonSql {
  /** A JSON object from `'key', value` pairs. */
  object(pairs: Record<string, string>): string;
  array(items: readonly string[]): string;
  /** The rows' `item`s as a JSON array, `[]` when there are none. */
  agg(item: string, orderBy?: string): string;
  /** `key: value` over the rows as a JSON object, `{}` when there are none. */
  objectAgg(key: string, value: string): string;
  /** A JSON column (or a nested document) as JSON, not as text. */
  doc(expression: string): string;
  /** A boolean column as JSON `true`/`false`. */
  bool(expression: string): string;
  /** A FROM item over a JSON array's elements (as text), its column named `value`. */
  elements(expression: string): string;
}

const sqliteJson: JsonSql = {
  object: (pairs) => `json_object(${Object.entries(pairs).map(([key, value]) => `'${key}', ${value}`)})`,
  array: (items) => `json_array(${items.join(", ")})`,
  agg: (item, orderBy) => `json_group_array(${item}${orderBy === undefined ? "" : ` ORDER BY ${orderBy}`})`,
  objectAgg: (key, value) => `json_group_object(${key}, ${value})`,
  doc: (expression) => `json(${expression})`,
  bool: (expression) => `json(CASE ${expression} WHEN 0 THEN 'false' ELSE 'true' END)`,
  elements: (expression) => `json_each(${expression})`,
};

const pgJson: JsonSql = {
  object: (pairs) =>
    `json_build_object(${Object.entries(pairs).map(([key, value]) => `'${key}', ${value}`)})`,
  array: (items) => `json_build_array(${items.join(", ")})`,
  agg: (item, orderBy) =>
    `coalesce(json_agg(${item}${orderBy === undefined ? "" : ` ORDER BY ${orderBy}`}), '[]')`,
  objectAgg: (key, value) => `coalesce(json_object_agg(${key}, ${value}), '{}')`,
  doc: (expression) => expression,
  bool: (expression) => expression,
  elements: (expression) => `jsonb_array_elements_text(${expression}) AS elements(value)`,
};

export function jsonSql(db: Pick<SqlRunner, "dialect">): JsonSql {
  return db.dialect === "sqlite" ? sqliteJson : pgJson;
}
