/**
 * Migration member_root_traits: traits set through Placement on a member root's row
 * become the member's, and the row keeps no inventories or traits of its
 * own (engine claim-rules/member-root.ts). The database is written by the
 * migrations before it, then opened with all of them.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memberProviderUuid } from "@berth/engine";
import { newMember } from "@berth/engine/testing";
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { MIGRATIONS_FOLDER } from "./apply-migrations.js";

/** Found by name: the number is the order it lands in. */
const NAME = "member_root_traits";
const unavailable = inject("postgresUnavailable");
const folder = join(tmpdir(), `berth-pg-migrations-${process.pid}`);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The shipped migrations cut before this one: what an older Berth had. */
function migrationsBefore(): string {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag.replace(/^\d+_/, "") === NAME),
  );
  mkdirSync(join(folder, "meta"), { recursive: true });
  for (const { tag } of entries) cpSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

if (unavailable !== "") {
  it.skip(`PostgreSQL migration test skipped: ${unavailable}`, () => {});
} else {
  it("moves traits set through Placement on a member root's row to the member", async () => {
    const url = await createTestDatabase(inject("postgresAdminUrl"));
    const old = await openPostgresStore(url, { migrationsFolder: migrationsBefore() });
    await old.createMember(newMember("a", { traits: ["CUSTOM_OWN"] }));
    const uuid = memberProviderUuid("a");
    const row = {
      uuid,
      name: "a",
      parentUuid: null,
      rootUuid: uuid,
      generation: 3,
      inventories: {
        VCPU: { total: 8, reserved: 0, minUnit: 1, maxUnit: 8, stepSize: 1, allocationRatio: 1 },
      },
      traits: ["CUSTOM_FROM_PLACEMENT", "CUSTOM_OWN"],
      aggregates: ["agg"],
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    // Providers hold only stored custom traits.
    for (const name of row.traits) await old.traits.create({ name, createdAt: row.createdAt });
    await old.providers.create(row);
    await old.providers.create({ ...row, uuid: "other", rootUuid: "other", name: "other", inventories: {} });
    await old.close();
    const upgraded = await openPostgresStore(url);
    try {
      // This migration first; later ones (any shipped after it) follow.
      expect(upgraded.migrations.applied.map((tag) => tag.replace(/^\d+_/, ""))[0]).toBe(NAME);
      expect((await upgraded.getMember("a"))?.traits).toEqual(["CUSTOM_FROM_PLACEMENT", "CUSTOM_OWN"]);
      expect(await upgraded.providers.get({ name: uuid })).toMatchObject({
        traits: [],
        inventories: {},
        aggregates: ["agg"],
        generation: 3,
      });
      // A root that is no member keeps its own.
      expect((await upgraded.providers.get({ name: "other" }))?.traits).toEqual(row.traits);
    } finally {
      await upgraded.close();
    }
  });
}
