import Table from "cli-table3";

/** lxc-style boxed table: `+----+` borders, one header row. Cells may carry ANSI colour. */
export function boxedTable(headers: string[], rows: string[][]): string {
  // cli-table3 colours headers and borders by default; colour is our decision (colour.ts), not its.
  const table = new Table({ head: headers, style: { head: [], border: [] }, chars: LXC_CHARS });
  for (const row of rows) table.push(row);
  return table.toString();
}

/** lxc's `--format compact`: the same columns without borders, two spaces apart. */
export function compactTable(headers: string[], rows: string[][]): string {
  const table = new Table({
    head: headers,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 2, compact: true },
    chars: NO_CHARS,
  });
  for (const row of rows) table.push(row);
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

const LXC_CHARS = {
  top: "-",
  "top-mid": "+",
  "top-left": "+",
  "top-right": "+",
  bottom: "-",
  "bottom-mid": "+",
  "bottom-left": "+",
  "bottom-right": "+",
  left: "|",
  "left-mid": "+",
  mid: "-",
  "mid-mid": "+",
  right: "|",
  "right-mid": "+",
  middle: "|",
};

const NO_CHARS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "",
};
