/** "?, ?, ?" for an IN list of `count` values. */
export function inList(count: number): string {
  return Array.from({ length: count }, () => "?").join(", ");
}

/** "(?, ?), (?, ?)" for a multi-row VALUES clause. */
export function valuesList(rows: number, columns: number): string {
  const row = `(${inList(columns)})`;
  return Array.from({ length: rows }, () => row).join(", ");
}
