/**
 * A PostgreSQL feed cursor: the snapshot (`pg_current_snapshot()`) of the
 * read that produced it, and the database clock at that read. The next read
 * returns the rows of every transaction that snapshot did not see; the time
 * tells whether pruning may have removed rows the reader never got.
 */
export function cursorOf(snapshot: string, atMs: number): string {
  return `${snapshot}@${atMs}`;
}

export function parseCursor(cursor: string): { snapshot: string; atMs: number } {
  const at = cursor.lastIndexOf("@");
  const snapshot = cursor.slice(0, at);
  const atMs = Number(cursor.slice(at + 1));
  if (at < 0 || !/^\d+:\d+:[\d,]*$/.test(snapshot) || !Number.isFinite(atMs)) {
    throw new Error(`Not a PostgreSQL change-feed cursor: "${cursor}"`);
  }
  return { snapshot, atMs };
}
