import { describe, expect, it } from "vitest";
import { listParam } from "./lists.js";
import { numbered, pgRunner, sqliteRunner } from "./runner.js";
import { boolValue, jsonValue, optionalJson } from "./values.js";

describe("numbered", () => {
  it("numbers placeholders in order for PostgreSQL", () => {
    expect(numbered("SELECT 1 FROM t WHERE a = ? AND b IN (?, ?)")).toBe(
      "SELECT 1 FROM t WHERE a = $1 AND b IN ($2, $3)",
    );
  });

  it("leaves question marks in quoted strings and identifiers alone", () => {
    expect(numbered(`SELECT '?' AS "why?", ? AS v`)).toBe(`SELECT '?' AS "why?", $1 AS v`);
  });
});

describe("runners", () => {
  it("hand SQLite the text as written and PostgreSQL the numbered text, with the same parameters", async () => {
    const seen: [string, unknown[] | undefined][] = [];
    const raw = {
      rows: async (text: string, params?: unknown[]) => {
        seen.push([text, params]);
        return [{ n: 1 }];
      },
      run: async (text: string, params?: unknown[]) => {
        seen.push([text, params]);
        return 2;
      },
    };
    expect(await sqliteRunner(raw).all("SELECT ? AS n", [1])).toEqual([{ n: 1 }]);
    expect(await pgRunner(raw).run("DELETE FROM t WHERE a = ? OR b = ?", ["x", "y"])).toBe(2);
    expect(seen).toEqual([
      ["SELECT ? AS n", [1]],
      ["DELETE FROM t WHERE a = $1 OR b = $2", ["x", "y"]],
    ]);
  });
});

describe("values", () => {
  it("reads JSON columns from SQLite's text and PostgreSQL's parsed values alike", () => {
    expect(jsonValue<string[]>('["a"]')).toEqual(["a"]);
    expect(jsonValue<string[]>(["a"])).toEqual(["a"]);
    expect(optionalJson(null)).toBeUndefined();
  });

  it("reads booleans from SQLite's 0/1 and PostgreSQL's booleans alike", () => {
    expect([boolValue(1), boolValue(true), boolValue(0), boolValue(false), boolValue(null)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("listParam", () => {
  it("binds a list as JSON text", () => {
    expect(listParam(["a", 1])).toBe('["a",1]');
  });

  it("puts U+FFFD in place of a lone surrogate, which SQLite's JSON functions would turn into invalid UTF-8", () => {
    expect(JSON.parse(listParam(["x\ud800y", "ok \ud83d\ude00"]))).toEqual(["x\ufffdy", "ok \ud83d\ude00"]);
  });
});
