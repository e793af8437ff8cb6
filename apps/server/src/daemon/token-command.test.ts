import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTokenAdmin } from "./open-backend.js";
import { runTokenCommand } from "./token-command.js";

describe("berthd token commands name their database", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-token-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a database file that does not exist, and does not create it", async () => {
    const db = join(dir, "missing.db");
    await expect(runTokenCommand(["create", "admin", "--admin", "--db", db], openTokenAdmin)).rejects.toThrow(
      `No database at ${db}. Name the one berthd runs on (--db PATH or BERTH_DB; berthd's default is berth.db in the folder it started in), or add --init to create a new database there.`,
    );
    await expect(runTokenCommand(["list", "--db", db], openTokenAdmin)).rejects.toThrow(
      `No database at ${db}.`,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("creates it with --init and says where, as an absolute path", async () => {
    const created = await runTokenCommand(
      ["create", "admin", "--admin", "--init", "--db", join(dir, "sub", "..", "new.db")],
      openTokenAdmin,
    );
    const db = join(dir, "new.db");
    expect(created).toMatch(
      new RegExp(
        `^Created the new database ${db}\\.\\nCreated token "admin" \\(admin\\) in the database ${db}\\.`,
      ),
    );
    expect(existsSync(db)).toBe(true);
    // The second token goes into the database that now exists, without --init.
    const json = JSON.parse(
      await runTokenCommand(["create", "ci", "--admin", "--db", db, "--json"], openTokenAdmin),
    ) as { database: string; token: string };
    expect(json.database).toBe(db);
    expect(json.token).toMatch(/^berth_/);
    expect(await runTokenCommand(["revoke", "ci", "--db", db], openTokenAdmin)).toBe(
      `Revoked token "ci" in the database ${db}.`,
    );
  });

  it("refuses :memory:, whose tokens no server could ever see", async () => {
    await expect(runTokenCommand(["list", "--db", ":memory:", "--init"], openTokenAdmin)).rejects.toThrow(
      "--db :memory: lives only as long as this command",
    );
  });
});
