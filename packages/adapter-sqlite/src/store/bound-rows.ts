/**
 * Row counts for multi-row `INSERT … VALUES (…), (…)` statements with one
 * bound parameter per value, for wide rows (instances: 22 columns). There
 * binding beats handing SQLite one JSON text: extracting 22 values per row
 * with `->>` cost about twice the binding (measured: 10,000 instance rows,
 * ~400 ms through json_each against ~200 ms bound). Narrow rows cost the
 * same either way and go through json-rows.ts.
 *
 * Every count is a power of two up to the largest that stays under ~8,000
 * parameters (SQLite allows 32,766), so however many rows a claim writes,
 * its statements come from at most nine distinct texts per table, each
 * compiled once and then taken from the client's statement cache (compiling
 * a statement of a few thousand parameters costs milliseconds).
 */
export function rowsPerStatement(rows: number, columns: number): number[] {
  let largest = 1;
  while (largest * 2 * columns <= 8000) largest *= 2;
  const counts: number[] = [];
  let left = rows;
  for (; left >= largest; left -= largest) counts.push(largest);
  for (let size = largest / 2; size >= 1; size /= 2) {
    if (left >= size) {
      counts.push(size);
      left -= size;
    }
  }
  return counts;
}
