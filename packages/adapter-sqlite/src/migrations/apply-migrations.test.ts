import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { inventoryOf } from "../testing/records.fixture.js";
import { makeTempDir } from "../testing/temp-dir.fixture.js";
import { MIGRATIONS_FOLDER, MigrationError } from "./apply-migrations.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

interface Journal {
  entries: { tag: string; when: number }[];
}
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as Journal;
const allTags = journal.entries.map((e) => e.tag);

/** A copy of the shipped migrations cut after the first one: what an older Berth had. */
function firstMigrationOnly(): string {
  const folder = join(dir.path, "v1-migrations");
  mkdirSync(join(folder, "meta"), { recursive: true });
  const first = journal.entries[0]!;
  copyFileSync(join(MIGRATIONS_FOLDER, `${first.tag}.sql`), join(folder, `${first.tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries: [first] }));
  return folder;
}

describe("migrations", () => {
  it("ships more than one migration, so upgrades are exercised", () => {
    expect(allTags.length).toBeGreaterThanOrEqual(2);
    expect(allTags[0]).toBe("0000_initial");
  });

  it("apply on first open and are idempotent on every later open", async () => {
    const file = dir.file("fresh.db");
    const first = await openStore(file);
    expect(first.migrations.applied).toEqual(allTags);
    await first.close();
    const second = await openStore(file);
    expect(second.migrations.applied).toEqual([]);
    await second.close();
    const memory = await openStore(":memory:");
    expect(memory.migrations.applied).toEqual(allTags);
    await memory.close();
  });

  it("upgrade a database written by the first version, keeping its data", async () => {
    const file = dir.file("v1.db");
    const old = await openStore(file, { migrationsFolder: firstMigrationOnly() });
    expect(old.migrations.applied).toEqual(["0000_initial"]);
    await old.close();
    // Rows as the first version wrote them (its columns only).
    const client = createClient({ url: `file:${file}` });
    await client.batch(
      [
        "INSERT INTO projects (name, description, config) VALUES ('default', '', '{}')",
        `INSERT INTO members (id, name, url, architecture, roles, config, generation, created_at)
         VALUES (1, 'a', 'https://a:8443', 'x86_64', '[]', '{}', 1, '2026-01-01T00:00:00.000Z')`,
        `INSERT INTO inventories (member_id, resource_class, total, source) VALUES (1, 'VCPU', 8, 'explicit')`,
        `INSERT INTO instances (id, project, name, type, member_id, forthcoming, architecture, profiles, config,
           devices, created_at, limits_cpu, revision)
         VALUES ('i-web', 'default', 'web', 'container', 1, 0, 'x86_64', '[]', '{}', '{}', '2026-01-01T00:00:00.000Z', 2, 1),
                ('i-r', 'default', 'r', 'container', 1, 1, 'x86_64', '[]', '{}', '{}', '2026-01-01T00:00:00.000Z', 1, 1)`,
        `INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount)
         VALUES ('i-web', 1, 'VCPU', 'used', 2), ('i-r', 1, 'VCPU', 'forthcoming', 1)`,
        `INSERT INTO usage (member_id, resource_class, ledger, amount) VALUES (1, 'VCPU', 'used', 2), (1, 'VCPU', 'forthcoming', 1)`,
        "INSERT INTO project_usage (project, instances, containers, cpu) VALUES ('default', 2, 2, 3)",
      ],
      "write",
    );
    client.close();

    const upgraded = await openStore(file);
    try {
      expect(upgraded.migrations.applied).toEqual(allTags.slice(1));
      expect((await upgraded.getInstance("default", "web"))?.location).toBe("a");
      expect(await upgraded.memberUsage(["a"])).toEqual([
        { member: "a", used: { VCPU: 2 }, forthcoming: { VCPU: 1 } },
      ]);
      // What the upgrade added works: shrinking below usage is remembered, so check() stays clean.
      expect((await upgraded.check()).violations).toEqual([]);
      const member = (await upgraded.getMember("a"))!;
      await upgraded.setInventories("a", { VCPU: inventoryOf(2) }, member.generation);
      expect((await upgraded.check()).violations).toEqual([]);
    } finally {
      await upgraded.close();
    }
  });

  it("refuse a database written by a newer version", async () => {
    const file = dir.file("future.db");
    await (await openStore(file)).close();
    const client = createClient({ url: `file:${file}` });
    await client.execute({
      sql: "INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)",
      args: ["from-the-future", Math.max(...journal.entries.map((e) => e.when)) + 1000],
    });
    client.close();
    const error = await openStore(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/written by a newer version of Berth/);
  });
});
