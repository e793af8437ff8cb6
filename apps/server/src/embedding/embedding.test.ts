import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { type PostgresServer, postgresUnavailable, startPostgres } from "@berth/postgres-test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { snippetsOf } from "./markdown-snippets.js";
import { installPackedPackages, type PackedInstall, WORKSPACE_ROOT } from "./packed-install.fixture.js";

/** The documents whose marked snippets must run as written, outside the repository. */
const READMES = [
  "docs/embedding.md",
  "packages/engine/README.md",
  "packages/adapter-sqlite/README.md",
  "packages/adapter-postgres/README.md",
  "packages/client/README.md",
  "packages/api-types/README.md",
  "packages/resources/README.md",
  "packages/starlark/README.md",
  "packages/sql-core/README.md",
  "apps/server/README.md",
];

/** Why the PostgreSQL snippet cannot run here (no server binaries), or undefined. */
const noPostgres = postgresUnavailable();

const snippets = new Map<string, string>();
for (const readme of READMES) {
  for (const [name, code] of snippetsOf(readFileSync(join(WORKSPACE_ROOT, readme), "utf8"))) {
    if (snippets.has(name)) throw new Error(`Snippet "${name}" is named twice (again in ${readme})`);
    snippets.set(name, code);
  }
}
const tested = new Set<string>();

/**
 * A third party's view of Berth: the packages packed into tarballs and
 * installed into a folder outside this repository, then every README
 * snippet run there as written (the client ones against a real berthd).
 */
describe("embedding: README snippets run from the packed packages, outside the repository", () => {
  let install: PackedInstall;
  let server: TestServer;
  let postgres: PostgresServer | undefined;

  async function runSnippet(name: string, env: Record<string, string> = {}): Promise<string[]> {
    const code = snippets.get(name);
    expect(code, `no README snippet named "${name}"`).toBeDefined();
    tested.add(name);
    const result = await install.run(name, code!, env);
    expect(result.stderr, `snippet ${name} failed`).toBe("");
    expect(result.code).toBe(0);
    return result.stdout.trimEnd().split("\n");
  }

  beforeAll(async () => {
    [install, server, postgres] = await Promise.all([
      installPackedPackages(),
      startTestServer(),
      noPostgres === undefined ? startPostgres() : undefined,
    ]);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await postgres?.stop();
    install?.close();
  });

  it("installs the tarballs, not links into this workspace", () => {
    for (const name of [
      "engine",
      "adapter-sqlite",
      "adapter-postgres",
      "sql-core",
      "client",
      "server",
      "api-types",
      "starlark",
      "resources",
    ]) {
      const installed = realpathSync(join(install.toolDir, "node_modules", "@berth", name));
      expect(installed.startsWith(WORKSPACE_ROOT), `@berth/${name} at ${installed}`).toBe(false);
      expect(installed.startsWith(install.toolDir)).toBe(true);
    }
  });

  it("docs/embedding.md: a placement on a SQLite file", async () => {
    expect(await runSnippet("root-embedding")).toEqual(["placed web1 on node1"]);
  });

  it("engine README: the in-memory engine, a scriptlet and dry runs", async () => {
    expect(await runSnippet("engine-embedding")).toEqual([
      "node1 default",
      "{ outcome: 'placed', member: 'node2', decidedBy: 'scriptlet' }",
      "placed false",
    ]);
  });

  it("adapter-sqlite README: a durable claim and a clean check", async () => {
    expect(await runSnippet("adapter-sqlite-embedding")).toEqual(["node1", "true"]);
  });

  // Without PostgreSQL's binaries the snippet is only marked as seen, saying why.
  it.skipIf(noPostgres !== undefined)(
    `adapter-postgres README: a claim committed in PostgreSQL${noPostgres === undefined ? "" : ` (skipped: ${noPostgres})`}`,
    async () => {
      const url = await postgres!.createDatabase();
      expect(await runSnippet("adapter-postgres-embedding", { BERTH_PG_URL: url })).toEqual([
        "node1",
        "true",
      ]);
    },
  );

  it("api-types README: a body validated, a config value refused", async () => {
    expect(await runSnippet("api-types-validation")).toEqual([
      "true web1",
      'Unknown field "cpus" (and 2 more errors)',
      'Unknown field "cpus"',
      'Invalid field "name": must be 1-63 characters of letters, digits and hyphens, start with a letter and not end with a hyphen',
      'Invalid field "type": expected one of "container", "virtual-machine", ""',
      'Cannot set "cluster.offline_threshold" to "5": must be an integer of seconds from 10 to 86400',
    ]);
  });

  it("resources README: sizes, a request and a fit check", async () => {
    expect(await runSnippet("resources-sizing")).toEqual([
      "4294967296 5",
      "Invalid value: 50%",
      "{ MEMORY_MB: 1024, VCPU: 2 }",
      "false exceeds-capacity",
      "Unable to allocate 4 VCPU. The requested amount would exceed the capacity: 7 used + 4 requested > capacity 10.",
    ]);
  });

  it("starlark README: a host runs a placement function, and a step limit stops a loop", async () => {
    expect(await runSnippet("starlark-host")).toEqual([
      "placing web1 on node2",
      "node2",
      "steps Starlark computation cancelled: too many steps (limit 10000)",
    ]);
  });

  it("sql-core README: the runner port numbers placeholders and binds a list as one JSON text", async () => {
    expect(await runSnippet("sql-core-runner")).toEqual([
      "SELECT name FROM members WHERE name IN (SELECT jsonb_array_elements_text(CAST($1 AS jsonb))) AND evacuated = $2",
      '[ \'["node1","node2"]\', false ]',
    ]);
  });

  it("client README: the fetch core against berthd over TCP with a token", async () => {
    const lines = await runSnippet("client-fetch", { BERTH_URL: server.url, BERTH_TOKEN: server.adminToken });
    expect(lines).toEqual(["node1", "placed", '404 Cluster member "nope" not found']);
  });

  it("client README: the Node client over berthd's Unix socket, with an ETag-checked edit", async () => {
    expect(await runSnippet("client-node", { BERTH_SOCKET: server.socketPath })).toEqual(["412", "2"]);
  });

  it("server README: berthd's app as a library", async () => {
    const lines = await runSnippet("server-library");
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+ and berth\.sock$/);
    expect(lines.slice(1)).toEqual(["berth"]);
  });

  it("every marked snippet of the READMEs was run above", () => {
    if (noPostgres !== undefined) tested.add("adapter-postgres-embedding");
    expect([...snippets.keys()].filter((name) => !tested.has(name))).toEqual([]);
  });
});
