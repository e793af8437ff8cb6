import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memberProviderUuid } from "@berth/engine";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";
import { MIGRATIONS_FOLDER, MigrationError } from "./apply-migrations.js";
import { stepName } from "./data-steps.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

interface Journal {
  entries: { tag: string; when: number }[];
}
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as Journal;
const allTags = journal.entries.map((e) => e.tag);

/** A copy of the shipped migrations cut after the first `count`: what an older Berth had. */
function firstMigrations(count: number): string {
  const folder = join(dir.path, `v${count}-migrations`);
  mkdirSync(join(folder, "meta"), { recursive: true });
  const entries = journal.entries.slice(0, count);
  for (const { tag } of entries)
    copyFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** Whether `table` was declared WITHOUT ROWID (it then has no rowid to select). */
async function hasRowid(file: string, table: string): Promise<boolean> {
  const client = createClient({ url: `file:${file}` });
  try {
    return await client.execute(`SELECT rowid FROM ${table} LIMIT 1`).then(
      () => true,
      () => false,
    );
  } finally {
    client.close();
  }
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
    const old = await openStore(file, { migrationsFolder: firstMigrations(1) });
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

  it("upgrade allocations and profile links to WITHOUT ROWID tables, keeping rows and their order", async () => {
    const file = dir.file("v6.db");
    const before = allTags.indexOf("0007_without_rowid_link_tables") - 1;
    const old = await openStore(file, { migrationsFolder: firstMigrations(before) });
    expect(old.migrations.applied).toEqual(allTags.slice(0, before));
    await old.close();
    // Allocations written in an order that is not their key order (VCPU
    // after MEMORY_MB would be key order), and a second profile link.
    const client = createClient({ url: `file:${file}` });
    await client.batch(
      [
        "INSERT INTO projects (name, description, config) VALUES ('default', '', '{}')",
        "INSERT INTO profiles (project, name, description, config, devices) VALUES ('default', 'default', '', '{}', '{}'), ('default', 'gpu', '', '{}', '{}')",
        `INSERT INTO members (id, name, url, architecture, roles, config, generation, created_at)
         VALUES (1, 'a', 'https://a:8443', 'x86_64', '[]', '{}', 1, '2026-01-01T00:00:00.000Z')`,
        `INSERT INTO inventories (member_id, resource_class, total, source)
         VALUES (1, 'VCPU', 8, 'explicit'), (1, 'MEMORY_MB', 8192, 'explicit')`,
        `INSERT INTO instances (id, project, name, type, member_id, forthcoming, architecture, profiles, config,
           devices, created_at, limits_cpu, revision)
         VALUES ('i-web', 'default', 'web', 'container', 1, 0, 'x86_64', '["default","gpu"]', '{}', '{}',
                 '2026-01-01T00:00:00.000Z', 2, 1)`,
        `INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount)
         VALUES ('i-web', 1, 'VCPU', 'used', 2), ('i-web', 1, 'MEMORY_MB', 'used', 1024)`,
        `INSERT INTO instance_profiles (instance_id, project, profile)
         VALUES ('i-web', 'default', 'default'), ('i-web', 'default', 'gpu')`,
        `INSERT INTO usage (member_id, resource_class, ledger, amount)
         VALUES (1, 'VCPU', 'used', 2), (1, 'MEMORY_MB', 'used', 1024)`,
        "INSERT INTO project_usage (project, instances, containers, cpu) VALUES ('default', 1, 1, 2)",
      ],
      "write",
    );
    client.close();
    expect(await hasRowid(file, "allocations")).toBe(true);

    const upgraded = await openStore(file);
    try {
      expect(upgraded.migrations.applied).toEqual(allTags.slice(before));
      expect(await hasRowid(file, "allocations")).toBe(false);
      expect(await hasRowid(file, "instance_profiles")).toBe(false);
      expect((await upgraded.getInstance("default", "web"))?.allocations).toEqual([
        { member: "a", resourceClass: "VCPU", ledger: "used", amount: 2 },
        { member: "a", resourceClass: "MEMORY_MB", ledger: "used", amount: 1024 },
      ]);
      // The profile links survived: a profile in use cannot be deleted.
      await expect(upgraded.profiles.delete({ project: "default", name: "gpu" })).rejects.toMatchObject({
        kind: "conflict",
      });
      expect((await upgraded.check()).violations).toEqual([]);
    } finally {
      await upgraded.close();
    }
  });

  it("move traits set through Placement on a member root's row to the member", async () => {
    const file = dir.file("member-root-traits.db");
    const before = allTags.findIndex((tag) => tag.replace(/^\d+_/, "") === "member_root_traits");
    expect(before).toBeGreaterThan(0);
    const old = await openStore(file, { migrationsFolder: firstMigrations(before) });
    const member = await old.createMember(memberOf("a", { VCPU: inventoryOf(8) }));
    await old.updateMember("a", { traits: ["CUSTOM_OWN"] }, member.generation);
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
    const upgraded = await openStore(file);
    try {
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

  it("hash the secrets of pending trust tokens, keeping the tokens redeemable by that hash", async () => {
    const file = dir.file("trust-tokens.db");
    const cut = allTags.findIndex((tag) => tag.replace(/^\d+_/, "") === "trust_token_hashes");
    expect(cut).toBeGreaterThan(0);
    const old = await openStore(file, { migrationsFolder: firstMigrations(cut) });
    await old.close();
    const client = createClient({ url: `file:${file}` });
    await client.execute(
      `INSERT INTO trust_tokens (id, name, secret, restricted, projects, created_at, expires_at)
       VALUES ('op-1', 'alice', 'plain-secret', 0, '[]', '2026-11-24T00:00:00.000Z', '2999-01-01T00:00:00.000Z')`,
    );
    client.close();
    const upgraded = await openStore(file);
    try {
      expect(upgraded.migrations.applied).toEqual(allTags.slice(cut));
      const hash = createHash("sha256").update("plain-secret", "utf8").digest("hex");
      const [token] = await upgraded.trust.listTokens("2026-11-24T12:00:00.000Z");
      expect(token).toMatchObject({ id: "op-1", name: "alice", secret_hash: hash });
      expect(JSON.stringify(token)).not.toContain("plain-secret");
      const redeemed = await upgraded.trust.redeemToken(hash, "2026-11-24T12:00:00.000Z", (t) => ({
        fingerprint: "f1",
        name: t.name,
        type: "client",
        restricted: false,
        projects: [],
        certificate: "PEM",
        created_at: "2026-11-24T12:00:00.000Z",
      }));
      expect(redeemed?.token.id).toBe("op-1");
    } finally {
      await upgraded.close();
    }
  });

  it("narrow the indexes a create writes: allocations by member alone, the change log's time unindexed", async () => {
    const file = dir.file("narrower-indexes.db");
    const cut = allTags.findIndex((tag) => stepName(tag) === "narrower_write_indexes");
    expect(cut).toBeGreaterThan(0);
    await (await openStore(file, { migrationsFolder: firstMigrations(cut) })).close();
    const client = createClient({ url: `file:${file}` });
    await client.batch(
      [
        "INSERT INTO projects (name, description, config) VALUES ('default', '', '{}')",
        `INSERT INTO members (id, name, url, architecture, roles, config, generation, created_at)
         VALUES (1, 'a', 'https://a:8443', 'x86_64', '[]', '{}', 1, '2026-01-01T00:00:00.000Z')`,
        `INSERT INTO instances (id, project, name, type, member_id, forthcoming, architecture, profiles, config,
           devices, created_at, revision)
         VALUES ('i-web', 'default', 'web', 'container', 1, 0, 'x86_64', '[]', '{}', '{}', '2026-01-01T00:00:00.000Z', 1)`,
        "INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount) VALUES ('i-web', 1, 'VCPU', 'used', 2)",
        "INSERT INTO inventories (member_id, resource_class, total, source) VALUES (1, 'VCPU', 8, 'explicit')",
        "INSERT INTO usage (member_id, resource_class, ledger, amount) VALUES (1, 'VCPU', 'used', 2)",
        "INSERT INTO project_usage (project, instances, containers, cpu) VALUES ('default', 1, 1, 0)",
      ],
      "write",
    );
    client.close();
    const upgraded = await openStore(file);
    const reader = createClient({ url: `file:${file}` });
    try {
      expect(upgraded.migrations.applied).toEqual(allTags.slice(cut));
      const indexes = await reader.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('allocations', 'change_log') ORDER BY name",
      );
      expect(indexes.rows.map((row) => row.name)).toEqual(["allocations_by_member"]);
      const plan = await reader.execute(
        "EXPLAIN QUERY PLAN SELECT instance_id FROM allocations WHERE member_id = 1 LIMIT 1",
      );
      expect(String(plan.rows[0]?.detail)).toContain("allocations_by_member");
      // The rows are kept, and a member holding allocations still cannot go.
      expect((await upgraded.getInstance("default", "web"))?.allocations).toEqual([
        { member: "a", resourceClass: "VCPU", ledger: "used", amount: 2 },
      ]);
      expect((await upgraded.check()).violations).toEqual([]);
    } finally {
      reader.close();
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
