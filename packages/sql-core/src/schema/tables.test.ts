import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { pgTables } from "./pg-tables.js";
import { sqliteTables } from "./sqlite-tables.js";
import * as sharedTableSpecs from "./tables.js";

const sqlite = sqliteTables(sharedTableSpecs);
const pg = pgTables(sharedTableSpecs);

describe("the shared table description", () => {
  it("builds every table in both dialects, with the same columns but PostgreSQL's own", () => {
    expect(Object.keys(sqlite).sort()).toEqual(Object.keys(pg).sort());
    for (const [key, table] of Object.entries(sqlite)) {
      const pgTable = pg[key as keyof typeof pg];
      const sqliteColumns = sqliteConfig(table).columns.map((c) => c.name);
      const pgColumns = pgConfig(pgTable).columns.map((c) => c.name);
      expect(pgColumns.filter((name) => !sqliteColumns.includes(name))).toEqual(
        key === "instances" ? ["seq"] : [],
      );
    }
  });

  it("gives each kind its dialect's type", () => {
    const sqliteTypes = Object.fromEntries(
      sqliteConfig(sqlite.inventories).columns.map((c) => [c.name, c.getSQLType()]),
    );
    const pgTypes = Object.fromEntries(pgConfig(pg.inventories).columns.map((c) => [c.name, c.getSQLType()]));
    expect([sqliteTypes.total, sqliteTypes.allocation_ratio]).toEqual(["integer", "real"]);
    expect([pgTypes.total, pgTypes.allocation_ratio]).toEqual(["bigint", "double precision"]);
    expect(
      pgConfig(pg.members)
        .columns.find((c) => c.name === "roles")
        ?.getSQLType(),
    ).toBe("jsonb");
    expect(
      sqliteConfig(sqlite.members)
        .columns.find((c) => c.name === "evacuated")
        ?.getSQLType(),
    ).toBe("integer");
  });

  it("keeps dialect-only indexes to their dialect", () => {
    const names = (indexes: { config: { name?: string; columns: unknown[] } }[]) =>
      indexes.map((i) => `${i.config.name}/${i.config.columns.length}`).sort();
    expect(names(sqliteConfig(sqlite.instances).indexes)).not.toContain("instances_by_seq/1");
    expect(names(sqliteConfig(sqlite.instances).indexes)).toContain("instances_by_project/1");
    expect(names(pgConfig(pg.instances).indexes)).toContain("instances_by_seq/1");
    expect(names(pgConfig(pg.instances).indexes)).toContain("instances_by_project/2");
  });

  it("resolves references to the built tables, a table's own included", () => {
    const target = (fk: { reference(): { foreignColumns: { name: string; table: unknown }[] } }) =>
      fk.reference().foreignColumns[0];
    const [toMembers] = sqliteConfig(sqlite.memberTraits).foreignKeys;
    expect(target(toMembers!)).toMatchObject({ name: "id", table: sqlite.members });
    const [toParent] = pgConfig(pg.providers).foreignKeys;
    expect(target(toParent!)).toMatchObject({ name: "uuid", table: pg.providers });
  });
});
