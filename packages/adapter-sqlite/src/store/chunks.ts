/**
 * Splits a list for multi-row statements: SQLite caps the number of bound
 * parameters per statement, and smaller statements keep memory flat.
 */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
