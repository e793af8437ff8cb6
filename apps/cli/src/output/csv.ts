/** One CSV field per RFC 4180: quoted when it holds a comma, quote, or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Rows without a header line, as `lxc list --format csv` prints them. */
export function csvRows(rows: string[][]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\n");
}
