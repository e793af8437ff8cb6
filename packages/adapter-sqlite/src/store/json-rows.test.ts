import { listParam } from "@berth/sql-core";
import { describe, expect, it } from "vitest";
import { LocalClient } from "../connection/local-client.js";
import { rowsPerStatement } from "./bound-rows.js";
import { IN_JSON, selectJsonRows } from "./json-rows.js";

describe("lists bound as one JSON text", () => {
  it("give back every value with its SQL type, rows in array order", async () => {
    const client = new LocalClient(":memory:", 1000);
    const rows = [
      ["a", 1, null, 2 ** 40, 'quote " and \\ backslash', "é😀"],
      ["b", -3, "x", 0, "", '{"k":"v"}'],
    ];
    const result = await client.execute({ sql: selectJsonRows(6), args: [listParam(rows)] });
    expect(result.rows.map((row) => Array.prototype.slice.call(row))).toEqual(rows);
    const types = await client.execute({
      sql: "SELECT typeof(value ->> 1) AS i, typeof(value ->> 2) AS n FROM json_each(?)",
      args: [listParam(rows)],
    });
    expect(types.rows.map((row) => [row.i, row.n])).toEqual([
      ["integer", "null"],
      ["integer", "text"],
    ]);
    const found = await client.execute({
      sql: `SELECT value FROM json_each(?) WHERE value IN ${IN_JSON}`,
      args: [listParam(["x", "y", "z"]), listParam(["z", "x"])],
    });
    expect(found.rows.map((row) => row.value)).toEqual(["x", "z"]);
    client.close();
  });

  it("replace a lone surrogate with U+FFFD, as binding the string would, so it reads back", async () => {
    // SQLite's JSON functions would decode the escaped lone surrogate into
    // bytes that are not UTF-8, and the driver aborts the process reading them.
    const client = new LocalClient(":memory:", 1000);
    const text = listParam([["lone \ud800 high", "lone \udc00 low", "pair 😀", "escaped \\ud800 text"]]);
    const result = await client.execute({ sql: selectJsonRows(4), args: [text] });
    expect(Array.prototype.slice.call(result.rows[0])).toEqual([
      "lone \ufffd high",
      "lone \ufffd low",
      "pair 😀",
      "escaped \\ud800 text",
    ]);
    const bound = await client.execute({ sql: "SELECT ? AS v", args: ["lone \ud800 high"] });
    expect(bound.rows[0]?.v).toBe("lone \ufffd high");
    client.close();
  });
});

describe("rowsPerStatement", () => {
  it("covers every row with power-of-two statements under ~8,000 parameters, few distinct sizes", () => {
    for (const [rows, columns] of [
      [0, 22],
      [1, 22],
      [10_000, 22],
      [255, 22],
      [12_345, 5],
      [7, 9000],
    ] as const) {
      const counts = rowsPerStatement(rows, columns);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(rows);
      for (const count of counts) {
        expect(Number.isInteger(Math.log2(count))).toBe(true);
        if (count > 1) expect(count * columns).toBeLessThanOrEqual(8000);
      }
      expect(new Set(counts).size).toBeLessThanOrEqual(Math.log2(8000) + 1);
    }
    expect(rowsPerStatement(10_000, 22)).toEqual([...Array(39).fill(256), 16]);
  });
});
