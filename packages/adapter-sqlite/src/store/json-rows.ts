/**
 * Lists handed to SQLite as ONE bound JSON text instead of one parameter
 * per value: each statement then has one fixed text (compiled once, then
 * taken from the client's statement cache, whatever the list's length), no
 * list has to be cut to stay under SQLite's parameter limit, and a lookup
 * of 10,000 ids is one statement instead of twenty. For narrow rows
 * (allocations, profile links, usage) inserting through json_each costs the
 * same as binding every value (measured); for wide rows it costs more, and
 * instances are bound value by value instead (bound-rows.ts).
 */

/** `(SELECT value FROM json_each(?))`: the right-hand side of an `IN` over a JSON array of scalars. */
export const IN_JSON = "(SELECT value FROM json_each(?))";

/**
 * `SELECT value ->> 0, value ->> 1, … FROM json_each(?) WHERE true`: the rows
 * of a JSON array of arrays, `columns` values each, in array order (so rowids
 * follow it). `WHERE true` lets an `ON CONFLICT` clause follow unambiguously.
 */
export function selectJsonRows(columns: number): string {
  const values = Array.from({ length: columns }, (_, index) => `value ->> ${index}`).join(", ");
  return `SELECT ${values} FROM json_each(?) WHERE true`;
}

/** An escaped lone surrogate, the only non-ASCII JSON.stringify escapes (ES2019 well-formed stringify). */
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The bound text for `selectJsonRows` or `IN_JSON`. A string holding a lone
 * UTF-16 surrogate gets U+FFFD in its place, as when it is bound as its own
 * parameter: SQLite's JSON functions would turn the escape into bytes that
 * are not UTF-8, which the driver cannot read back (it aborts the process).
 * Such strings are rare, so the text is only re-made when one is there
 * (or when an escaped backslash happens to precede "ud8…", harmlessly).
 */
export function jsonParameter(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  if (!LONE_SURROGATE_ESCAPE.test(text)) return text;
  return JSON.stringify(values, (_key, value: unknown) =>
    typeof value === "string" ? value.replace(LONE_SURROGATE, "\ufffd") : value,
  );
}
