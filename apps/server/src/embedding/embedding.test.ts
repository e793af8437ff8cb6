import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { snippetsOf } from "./markdown-snippets.js";
import { installPackedPackages, type PackedInstall, WORKSPACE_ROOT } from "./packed-install.fixture.js";

/** The documents whose marked snippets must run as written, outside the repository. */
const READMES = [
  "docs/embedding.md",
  "packages/engine/README.md",
  "packages/adapter-sqlite/README.md",
  "packages/client/README.md",
  "apps/server/README.md",
];

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
    [install, server] = await Promise.all([installPackedPackages(), startTestServer()]);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    install?.close();
  });

  it("installs the tarballs, not links into this workspace", () => {
    for (const name of [
      "engine",
      "adapter-sqlite",
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
    expect([...snippets.keys()].filter((name) => !tested.has(name))).toEqual([]);
  });
});
