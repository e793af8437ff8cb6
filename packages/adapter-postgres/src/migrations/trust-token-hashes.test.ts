/**
 * The migration that stops keeping certificate-add token secrets: a pending token written by the
 * version before it is kept, its secret replaced by the secret's hex SHA-256, and it can still be
 * redeemed (by that hash, as berthd now looks tokens up).
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { MIGRATIONS_FOLDER } from "./apply-migrations.js";

const unavailable = inject("postgresUnavailable");
const dir = mkdtempSync(join(tmpdir(), "berth-pg-migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Journal {
  entries: { tag: string }[];
}

/** The shipped migrations up to, not including, the one named `name`: what the older Berth had. */
function migrationsBefore(name: string): string {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as Journal;
  const cut = journal.entries.findIndex((entry) => entry.tag.replace(/^\d+_/, "") === name);
  expect(cut).toBeGreaterThan(0);
  const folder = join(dir, name);
  mkdirSync(join(folder, "meta"), { recursive: true });
  const entries = journal.entries.slice(0, cut);
  for (const { tag } of entries)
    copyFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  return folder;
}

it.skipIf(unavailable !== "")(
  `hashes the secrets of pending trust tokens on upgrade${unavailable === "" ? "" : ` (skipped: ${unavailable})`}`,
  async () => {
    const url = await createTestDatabase(inject("postgresAdminUrl"));
    const old = await openPostgresStore(url, { migrationsFolder: migrationsBefore("trust_token_hashes") });
    await old.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO trust_tokens (id, name, secret, restricted, projects, created_at, expires_at)
         VALUES ('op-1', 'alice', 'plain-secret', false, '[]', '2026-11-24T00:00:00.000Z', '2999-01-01T00:00:00.000Z')`,
      );
    } finally {
      await client.end();
    }
    const upgraded = await openPostgresStore(url);
    try {
      expect(upgraded.migrations.applied.map((tag) => tag.replace(/^\d+_/, ""))).toContain(
        "trust_token_hashes",
      );
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
  },
);
