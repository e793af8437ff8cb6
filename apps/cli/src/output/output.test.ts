import { describe, expect, it } from "vitest";
import { percentUsed, usageBar } from "./bars.js";
import { colourEnabled, colours } from "./colour.js";
import { csvField, csvRows } from "./csv.js";
import { parseOutputFormat } from "./format.js";
import { renderProgress } from "./progress.js";
import { formatClassAmount, formatCount } from "./sizes.js";
import { type Column, renderFields, renderList } from "./view.js";

const plain = colours(false);
const coloured = colours(true);

interface Row {
  name: string;
  memory: number;
}
const columns: Column<Row>[] = [
  { header: "NAME", human: (r) => r.name },
  { header: "MEMORY", human: (r) => formatClassAmount("MEMORY_MB", r.memory), exact: (r) => r.memory },
];
const rows: Row[] = [
  { name: "web1", memory: 2048 },
  { name: "db, primary", memory: 8192 },
];

describe("colour policy", () => {
  it("colours only a terminal without NO_COLOR", () => {
    expect(colourEnabled({ isTTY: true, env: {} })).toBe(true);
    expect(colourEnabled({ isTTY: false, env: {} })).toBe(false);
    expect(colourEnabled({ isTTY: true, env: { NO_COLOR: "1" } })).toBe(false);
    expect(colourEnabled({ isTTY: true, env: { TERM: "dumb" } })).toBe(false);
    expect(colourEnabled({ isTTY: true, env: {} }, true)).toBe(false);
  });
  it("treats an empty NO_COLOR as unset, as no-color.org says", () => {
    expect(colourEnabled({ isTTY: true, env: { NO_COLOR: "" } })).toBe(true);
  });
});

describe("formats", () => {
  it("accepts the five formats and names the bad one", () => {
    expect(parseOutputFormat("yaml")).toBe("yaml");
    expect(() => parseOutputFormat("xml")).toThrow(
      'Invalid format "xml": expected one of table, json, yaml, csv, compact',
    );
  });

  it("prints lxc-style boxed tables with human sizes", () => {
    expect(renderList({ columns, rows }, "table", plain)).toBe(
      [
        "+-------------+---------+",
        "| NAME        | MEMORY  |",
        "+-------------+---------+",
        "| web1        | 2.00GiB |",
        "+-------------+---------+",
        "| db, primary | 8.00GiB |",
        "+-------------+---------+",
        "",
      ].join("\n"),
    );
  });

  it("prints compact tables without borders or trailing blanks", () => {
    expect(renderList({ columns, rows }, "compact", plain)).toBe(
      ["NAME         MEMORY", "web1         2.00GiB", "db, primary  8.00GiB", ""].join("\n"),
    );
  });

  it("prints csv with exact values, quoting commas, no header", () => {
    expect(renderList({ columns, rows }, "csv", coloured)).toBe('web1,2048\n"db, primary",8192\n');
  });

  it("prints json and yaml of the document, exact", () => {
    expect(JSON.parse(renderList({ columns, rows }, "json", plain))).toEqual(rows);
    expect(renderList({ columns, rows, document: { a: 1 } }, "yaml", plain)).toBe("a: 1\n");
  });

  it("never puts escapes in csv even when colour is on", () => {
    const colouredColumns: Column<Row>[] = [{ header: "NAME", human: (r, c) => c.red(r.name) }];
    expect(renderList({ columns: colouredColumns, rows }, "csv", coloured)).not.toContain("\x1b[");
    expect(renderList({ columns: colouredColumns, rows }, "table", coloured)).toContain("\x1b[31mweb1");
  });

  it("renders key: value fields", () => {
    expect(
      renderFields(
        [
          ["Name", "web1"],
          ["Location", "node1"],
        ],
        plain,
      ),
    ).toBe("Name: web1\nLocation: node1\n");
  });
});

describe("csv fields", () => {
  it("quotes per RFC 4180", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvRows([["a", "b,c"]])).toBe('a,"b,c"');
  });
});

describe("sizes", () => {
  it("shows memory and disk classes as IEC sizes and counts as numbers", () => {
    expect(formatClassAmount("MEMORY_MB", 1536)).toBe("1.50GiB");
    expect(formatClassAmount("DISK_GB", 100)).toBe("100.00GiB");
    expect(formatClassAmount("VCPU", 32)).toBe("32");
    expect(formatClassAmount("CUSTOM_GPU", 2.5)).toBe("2.5");
    expect(formatCount(1 / 3)).toBe("0.33");
  });
});

describe("usage bars", () => {
  it("fills in proportion and prints the percentage", () => {
    expect(usageBar(4, 8, plain)).toBe("████░░░░  50%");
    expect(usageBar(0, 8, plain)).toBe("░░░░░░░░   0%");
    expect(usageBar(8, 8, plain)).toBe("████████ 100%");
    expect(usageBar(12, 8, plain)).toBe("████████ 150%");
  });
  it("is green, yellow or red by fill when colour is on", () => {
    expect(usageBar(1, 10, coloured)).toContain("\x1b[32m");
    expect(usageBar(8, 10, coloured)).toContain("\x1b[33m");
    expect(usageBar(9, 10, coloured)).toContain("\x1b[31m");
  });
  it("handles classes without capacity", () => {
    expect(percentUsed(0, 0)).toBe(0);
    expect(percentUsed(1, 0)).toBe(100);
  });
});

describe("progress line", () => {
  it("shows the bar, counts and elapsed time", () => {
    expect(renderProgress("Placing instances", 5, 10, 1234, plain, "*", 10)).toBe(
      "* Placing instances [█████░░░░░] 5/10  1.2s",
    );
  });
});
