/**
 * Lists handed to SQLite as ONE bound JSON text instead of one parameter
 * per value: each statement then has one fixed text (compiled once, then
 * taken from the client's statement cache, whatever the list's length), no
 * list has to be cut to stay under SQLite's parameter limit, and a lookup
 * of 10,000 ids is one statement instead of twenty. For narrow rows
 * (allocations, profile links, usage) inserting through json_each costs the
 * same as binding every value (measured); for wide rows it costs more, and
 * instances are bound value by value instead (bound-rows.ts). The lists'
 * bound text is @berth/sql-core's `listParam`.
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
