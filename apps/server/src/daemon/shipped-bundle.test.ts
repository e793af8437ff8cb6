/**
 * The berthd that ships is one bundle (scripts/bundle.mjs), and a bundle moves every module to
 * dist/berthd/: what a module finds by its own location must still be found there. These start
 * the bundle and use each such thing: the scriptlet worker (worker-main.js beside it), the WAL
 * checkpoint worker (libsql, resolved from the bundle), the migrations of both stores (copied
 * beside it; PostgreSQL's store is a chunk loaded only for a postgres:// URL) and the console's
 * files (found through @berth/web).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BerthApi } from "@berth/client/node";
import { type PostgresServer, postgresUnavailable, startPostgres } from "@berth/postgres-test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN, type RunningDaemon, startDaemon } from "../testing/daemon.fixture.js";
import { addMembers } from "../testing/test-server.fixture.js";

const PICK_NODE2 = [
  "def instance_placement(request, candidate_members):",
  '    log_info("bundled scriptlet placed ", request.name)',
  '    set_target("node2")',
  "",
].join("\n");

async function startBundle(dir: string, db: string): Promise<{ daemon: RunningDaemon; api: BerthApi }> {
  const socket = join(dir, "berth.sock");
  const daemon = await startDaemon(
    ["--db", db, "--listen", "127.0.0.1:0", "--socket", socket, "--state-dir", "none"],
    { ...process.env, BERTH_LOG_LEVEL: "info" },
  );
  return { daemon, api: new BerthApi({ socketPath: socket }) };
}

it("is the bundle, not tsc's dist/main.js", () => {
  expect(MAIN.endsWith("/dist/berthd/berthd.js")).toBe(true);
  expect(existsSync(MAIN)).toBe(true);
});

describe("the bundled berthd on a SQLite file", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-bundle-"));
  const db = join(dir, "berth.db");
  let daemon: RunningDaemon;
  let api: BerthApi;
  beforeAll(async () => {
    ({ daemon, api } = await startBundle(dir, db));
    await addMembers(api, [{ name: "node1" }, { name: "node2" }]);
  });
  afterAll(async () => {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs a placement scriptlet on its worker thread", async () => {
    await api.patchServerConfig({ "instances.placement.scriptlet": PICK_NODE2 });
    for (const name of ["first", "second"])
      expect((await api.createInstance({ name })).metadata.location).toBe("node2");
    // berthd writes its log asynchronously: the line may land just after the answer.
    await expect.poll(() => daemon.stdout(), { timeout: 5_000 }).toContain("bundled scriptlet placed second");
    // A worker that cannot load its file is replaced (and logged) at every run.
    expect(daemon.stdout()).not.toContain("scriptlet worker replaced");
  });

  it("checkpoints the WAL from its checkpoint worker", async () => {
    // The connection's own automatic checkpoint is off while the worker runs (and would wait for
    // ~4 MiB of WAL): only the worker copies these few commits into the database file.
    expect(existsSync(`${db}-wal`)).toBe(true);
    const before = statSync(db).mtimeMs;
    await api.createInstance({ name: "written" });
    await expect.poll(() => statSync(db).mtimeMs, { timeout: 15_000, interval: 200 }).toBeGreaterThan(before);
  });

  it("serves the console's page and its assets", async () => {
    const page = await fetch(`${daemon.url}/ui/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<title>Berth console</title>");
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${daemon.url}${script}`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(1000);
  });
});

describe.skipIf(postgresUnavailable() !== undefined)("the bundled berthd on PostgreSQL", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-bundle-pg-"));
  let postgres: PostgresServer | undefined;
  let daemon: RunningDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the PostgreSQL store, migrates a new database and places on it", async () => {
    postgres = await startPostgres();
    const started = await startBundle(dir, await postgres.createDatabase());
    daemon = started.daemon;
    await addMembers(started.api, [{ name: "pg1" }]);
    expect((await started.api.createInstance({ name: "on-pg" })).metadata.location).toBe("pg1");
  });
});
