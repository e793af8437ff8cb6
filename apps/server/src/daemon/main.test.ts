import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { get as httpsGet } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BerthApiError } from "@berth/client/node";
import { BerthApi } from "@berth/client/node";
import { afterAll, describe, expect, it } from "vitest";
import { FileTokenStore } from "../auth/file-token-store.js";
import { issueToken } from "../auth/issue-token.js";
import { exitOf, MAIN, startDaemon } from "../testing/daemon.fixture.js";

const run = promisify(execFile);
const NODE_ARGS = [MAIN];
/** A group other than the test's own, so giving it to the socket is visible: root may give any group (CI runs as root). */
const SOCKET_GROUP =
  process.getuid?.() === 0
    ? 1
    : (process.getgroups?.().find((g) => g !== process.getgid?.()) ?? process.getgid?.() ?? 0);

describe("berthd entry point", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-main-"));
  const db = join(dir, "berth.db");
  const socket = join(dir, "berth.sock");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the first admin token straight on the database", async () => {
    const { stdout } = await run(process.execPath, [
      ...NODE_ARGS,
      "token",
      "create",
      "root",
      "--admin",
      "--db",
      db,
      "--init",
      "--json",
    ]);
    const created = JSON.parse(stdout) as { name: string; admin: boolean; token: string };
    expect(created).toMatchObject({ name: "root", admin: true });
    expect(created.token).toMatch(/^berth_/);
    // In the database itself: no token file beside it.
    expect(existsSync(`${db}.tokens.json`)).toBe(false);
    // Token hashes and cluster data: the owner's only, whatever the umask.
    expect(statSync(db).mode & 0o777).toBe(0o600);
    const failure = await run(process.execPath, [
      ...NODE_ARGS,
      "token",
      "create",
      "root",
      "--admin",
      "--db",
      db,
    ]).catch((e: { code: number; stderr: string }) => e);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toContain('Token "root" already exists');
    process.env.BERTH_TEST_TOKEN = created.token;
  });

  it("refuses a restricted token for a project that does not exist", async () => {
    const ghost = await run(process.execPath, [
      ...NODE_ARGS,
      "token",
      "create",
      "early",
      "--project",
      "ghost",
      "--db",
      db,
    ]).catch((e: { code: number; stderr: string }) => e);
    expect((ghost as { code: number }).code).toBe(2);
    expect((ghost as { stderr: string }).stderr).toContain(
      'Project "ghost" not found: a restricted token can only name existing projects',
    );
  }, 60_000);

  it("starts with --demo, serves socket (0660) and TCP, and stops gracefully on SIGTERM", async () => {
    const token = process.env.BERTH_TEST_TOKEN ?? "";
    const { child, url, stdout } = await startDaemon([
      "--db",
      db,
      "--listen",
      "127.0.0.1:0",
      "--socket",
      socket,
      "--socket-group",
      String(SOCKET_GROUP),
      "--demo",
    ]);
    try {
      expect(stdout()).toContain(`curl -s --unix-socket ${socket}`);
      // The console's address, served from apps/web's build (turbo builds it before berthd).
      expect(stdout()).toContain(`Web console: ${url}/ui/ (sign in with an API token)`);
      const page = await fetch(`${url}/ui/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>Berth console</title>");
      expect(statSync(socket).mode & 0o777).toBe(0o660);
      expect(statSync(socket).gid).toBe(SOCKET_GROUP);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
      const local = new BerthApi({ socketPath: socket });
      expect(await local.members.names()).toEqual(["node1", "node2", "node3", "node4"]);
      const placed = await local.createInstance({
        name: "web1",
        source: { type: "image", alias: "ubuntu/24.04" },
        flavor: "m1.small",
      });
      expect(placed.metadata.location).toMatch(/^node[1-4]$/);
      const remote = new BerthApi({ url, token });
      expect(await remote.instances.names()).toEqual(["web1"]);
      // An in-flight request (a scriptlet that runs until its 1.5 s deadline) must finish during shutdown.
      await remote.patchServerConfig({
        "instances.placement.scriptlet.timeout_ms": "1500",
        "instances.placement.scriptlet":
          "def instance_placement(request, candidate_members):\n    for i in range(1000000000):\n        pass\n",
      });
      const inFlight = remote.createInstance({ name: "slow1" }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 300));
      const exited = exitOf(child);
      child.kill("SIGTERM");
      const answer = (await inFlight) as { status: number; message: string };
      expect(answer.status).toBe(400);
      expect(answer.message).toMatch(/^Failed instance placement scriptlet: Failed to run/);
      expect(await exited).toBe(0);
      // Log lines are written asynchronously: those still pending at exit (the last request's, the goodbye) are not lost.
      await expect.poll(stdout, { timeout: 5_000 }).toContain('"msg":"berthd stopped"');
      // The typed client asks for an operation: the POST answers 202, the failure is the operation's.
      expect(stdout()).toMatch(/"path":"\/1\.0\/instances"[^\n]*"status":202[^\n]*"msg":"request"/);
    } finally {
      if (child.exitCode === null) {
        const gone = exitOf(child);
        child.kill("SIGKILL");
        await gone;
      }
    }
  });

  it("keeps its data across restarts and does not reload the demo", async () => {
    const { child, url } = await startDaemon([
      "--db",
      db,
      "--listen",
      "127.0.0.1:0",
      "--socket",
      socket,
      "--demo",
    ]);
    try {
      const local = new BerthApi({ socketPath: socket });
      expect(await local.members.names()).toHaveLength(4);
      expect(await local.instances.names()).toEqual(["web1"]);
      // A token created by another process on the database works at once, and so does its revocation.
      const { stdout } = await run(process.execPath, [
        ...NODE_ARGS,
        "token",
        "create",
        "ci",
        "--project",
        "default",
        "--db",
        db,
        "--json",
      ]);
      const ci = new BerthApi({ url, token: (JSON.parse(stdout) as { token: string }).token });
      expect(await ci.instances.names()).toEqual(["web1"]);
      await run(process.execPath, [...NODE_ARGS, "token", "revoke", "ci", "--db", db]);
      const refused = await ci.instances.names().catch((e: unknown) => e);
      expect((refused as BerthApiError).status).toBe(401);
    } finally {
      const exited = exitOf(child);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    }
  });
});

describe("berthd token storage upgrade", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-upgrade-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("imports the token file of an older berthd into the database once", async () => {
    const db = join(dir, "old.db");
    const file = `${db}.tokens.json`;
    await issueToken(new FileTokenStore(file), "legacy", { admin: false, projects: ["default"] });
    // Only the token file is made here (an old berthd's database held no tokens): --init opens a new one.
    const { stdout } = await run(process.execPath, [
      ...NODE_ARGS,
      "token",
      "list",
      "--db",
      db,
      "--init",
      "--json",
    ]);
    expect(
      (JSON.parse(stdout) as { name: string; projects: string[] }[]).map((t) => [t.name, t.projects]),
    ).toEqual([["legacy", ["default"]]]);
    expect(existsSync(file)).toBe(false);
    expect(statSync(`${file}.imported`).isFile()).toBe(true);
    // Revoked in the database, it stays revoked: the old file is not read again.
    await run(process.execPath, [...NODE_ARGS, "token", "revoke", "legacy", "--db", db]);
    const after = await run(process.execPath, [...NODE_ARGS, "token", "list", "--db", db, "--json"]);
    expect(JSON.parse(after.stdout)).toEqual([]);
  });
});

describe("berthd's own certificate (--state-dir)", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-state-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const stateDir = join(dir, "state");
  const args = ["--db", join(dir, "berth.db"), "--listen", "127.0.0.1:0", "--socket", "none"];
  args.push("--state-dir", stateDir, "--demo");

  function getServerInfo(url: string, ca: string): Promise<{ auth: string }> {
    return new Promise((resolve, reject) => {
      const request = httpsGet(`${url}/1.0`, { ca }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve((JSON.parse(body) as { metadata: { auth: string } }).metadata));
      });
      request.once("error", reject);
    });
  }

  it("creates server.crt and server.key on first start, speaks HTTPS and HTTP on one port, keeps them on restart", async () => {
    const fingerprintIn = (out: string) => /"certificate_fingerprint":"([0-9a-f]{64})"/.exec(out)?.[1];
    const first = await startDaemon(args);
    let fingerprint: string | undefined;
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.httpsUrl).toBe(first.url.replace("http:", "https:"));
      expect(statSync(join(stateDir, "server.key")).mode & 0o777).toBe(0o600);
      const cert = readFileSync(join(stateDir, "server.crt"), "utf8");
      fingerprint = fingerprintIn(first.stdout());
      expect(fingerprint).toBe(new X509Certificate(cert).fingerprint256.replaceAll(":", "").toLowerCase());
      // Pinned by its own certificate; with no token and no trusted client certificate: untrusted, as LXD says.
      expect(await getServerInfo(first.httpsUrl ?? "", cert)).toEqual(
        expect.objectContaining({ auth: "untrusted" }),
      );
      // The web console and token clients keep plain HTTP on the same port.
      const plain = await fetch(`${first.url}/1.0`);
      expect(plain.status).toBe(401);
      expect(((await plain.json()) as { error: string }).error).toContain("Missing bearer token");
      expect((await fetch(`${first.url}/ui/`)).status).not.toBe(401);
    } finally {
      await first.stop();
    }
    const second = await startDaemon(args);
    try {
      expect(fingerprintIn(second.stdout())).toBe(fingerprint);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it("two servers starting at once on one state directory share one certificate", async () => {
    const shared = join(dir, "shared-state");
    const start = (name: string) =>
      startDaemon(["--db", join(dir, `${name}.db`), "--listen", "127.0.0.1:0", "--socket", "none"], {
        ...process.env,
        BERTH_STATE_DIR: shared,
      });
    const [a, b] = await Promise.all([start("a"), start("b")]);
    try {
      const cert = readFileSync(join(shared, "server.crt"), "utf8");
      expect(await getServerInfo(a.httpsUrl ?? "", cert)).toMatchObject({ auth: "untrusted" });
      expect(await getServerInfo(b.httpsUrl ?? "", cert)).toMatchObject({ auth: "untrusted" });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 90_000);

  it("--state-dir none: plain HTTP only, no certificate", async () => {
    const daemon = await startDaemon(
      ["--db", join(dir, "plain.db"), "--listen", "127.0.0.1:0"].concat([
        "--socket",
        "none",
        "--state-dir",
        "none",
      ]),
    );
    try {
      expect(daemon.httpsUrl).toBeUndefined();
      expect(daemon.stdout()).not.toContain("certificate_fingerprint");
      expect((await fetch(`${daemon.url}/1.0`)).status).toBe(401);
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});
