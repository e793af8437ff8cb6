/*
 * Reading values both drivers return differently: SQLite gives JSON
 * documents as text and booleans as 0/1; PostgreSQL gives jsonb parsed and
 * booleans as booleans. Every codec reads through these.
 */

/** A JSON column's value (text from SQLite, parsed already from PostgreSQL). */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** A nullable JSON column's value. */
export function optionalJson<T>(value: unknown): T | undefined {
  return value === null || value === undefined ? undefined : jsonValue<T>(value);
}

export function boolValue(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

/** A nullable text column's value. */
export function optionalText(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

/** JSON to bind: both dialects take the text (PostgreSQL casts it to jsonb). */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value);
}
