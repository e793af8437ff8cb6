import { describe, expect, it } from "vitest";
import { providers } from "../schema/tables.js";
import { decodeRow, encodeRow, selectColumns } from "./row-codec.js";

describe("catalog row codec", () => {
  it("selects every column keyed like the record", () => {
    expect(selectColumns(providers)).toContain('parent_uuid AS "parentUuid"');
  });

  it("binds JSON columns as text and names each column", () => {
    expect(encodeRow(providers, { uuid: "u", traits: ["A"], parentUuid: null })).toEqual({
      columns: ["uuid", "traits", "parent_uuid"],
      params: ["u", '["A"]', null],
    });
    expect(() => encodeRow(providers, { nope: 1 })).toThrow(/no column nope/);
  });

  it("reads JSON columns from SQLite's text or PostgreSQL's values, nulls kept", () => {
    const sqliteRow = { uuid: "u", traits: '["A"]', inventories: "{}", parentUuid: null };
    const pgRow = { uuid: "u", traits: ["A"], inventories: {}, parentUuid: null };
    expect(decodeRow(providers, sqliteRow)).toEqual(decodeRow(providers, pgRow));
    expect(decodeRow(providers, pgRow)).toMatchObject({ traits: ["A"], parentUuid: null });
  });
});
