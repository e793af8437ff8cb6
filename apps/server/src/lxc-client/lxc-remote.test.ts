/**
 * The real LXD client (`/usr/bin/lxc`, LXD 5.0.2) using berthd remotely the
 * LXD way: berthd serves HTTPS with its own certificate, `lxc config trust
 * add` (on the local socket) makes a certificate-add token, `lxc remote add
 * NAME TOKEN` redeems it with the client's certificate, and the client then
 * works over HTTPS. A restricted certificate sees only its project.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, type LxcRun, lxcClientOf, runLxc, seedLxcCluster } from "./lxc-runner.fixture.js";

const FINGERPRINT = "b1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

describeWithLxc("lxc remote tests")(
  "the real lxc client over HTTPS, trusted by certificate",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let localDir: string;

    /** `conf` is the client's LXD_CONF: each one is a separate client with its own certificate. */
    const lxc = (conf: string, args: string[], input?: string): Promise<LxcRun> =>
      runLxc({ lxdDir: localDir, confDir: join(server.dir, conf) }, args, input);

    async function ok(conf: string, args: string[], input?: string): Promise<string> {
      const run = await lxc(conf, args, input);
      if (run.code !== 0) throw new Error(`lxc ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
      return run.stdout;
    }

    /** `lxc config trust add` on the local socket; the token is the output's last line. */
    async function trustToken(args: string[]): Promise<string> {
      const out = await ok("admin-conf", ["config", "trust", "add", ...args]);
      expect(out).toMatch(/^Client \S+ certificate add token:\n/);
      return out.trim().split("\n").at(-1) ?? "";
    }

    beforeAll(async () => {
      server = await startTestServer({ lxdTrust: true });
      localDir = lxcClientOf(server).lxdDir;
      for (const conf of ["admin-conf", "alice-conf", "team-conf", "stranger-conf"])
        mkdirSync(join(server.dir, conf), { recursive: true });
      await seedLxcCluster(server, {
        members: [
          { name: "node1", cpus: 16 },
          { name: "node2", cpus: 16 },
        ],
        images: [{ alias: "ubuntu/24.04", fingerprint: FINGERPRINT }],
        projects: ["team"],
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("remote add with a trust token, then info, cluster list, init and list over HTTPS", async () => {
      const token = await trustToken(["--name", "alice"]);
      const decoded = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
      expect(decoded).toMatchObject({
        client_name: "alice",
        fingerprint: server.trust.serverFingerprint,
        addresses: [new URL(server.httpsUrl ?? "").host],
      });
      await ok("alice-conf", ["remote", "add", "berth", token]);
      expect(await ok("alice-conf", ["remote", "list", "-f", "csv"])).toContain(`berth,${server.httpsUrl}`);
      const info = await ok("alice-conf", ["info", "berth:"]);
      expect(info).toContain("auth: trusted");
      expect(info).toContain("server_clustered: true");
      const members = await ok("alice-conf", ["cluster", "list", "berth:", "-f", "csv"]);
      expect(members).toMatch(/^node1,/m);
      expect(members).toMatch(/^node2,/m);
      await ok("alice-conf", ["init", "berth:ubuntu/24.04", "berth:r1", "--target", "node2"]);
      expect((await server.engine.instances.get("default", "r1")).location).toBe("node2");
      expect(await ok("alice-conf", ["list", "berth:", "-c", "nL", "-f", "csv"])).toContain("r1,node2");
      // lxc followed the create's operation on the events websocket, authenticated by its certificate.
      expect(
        server.logs.some(
          (l) => l.path === "/1.0/events" && l.principal === "certificate:alice" && l.listener === "tcp",
        ),
      ).toBe(true);
      // The certificate is in the trust store, listed as LXD lists it.
      const trusted = await ok("admin-conf", ["config", "trust", "list", "-f", "csv"]);
      expect(trusted).toContain("alice");
      const entry = server.logs.find((l) => l.msg === "trust token redeemed: client certificate trusted");
      expect(entry).toMatchObject({ name: "alice", restricted: false });
      expect(JSON.stringify(server.logs)).not.toContain(decoded.secret);
    });

    it("a token works once", async () => {
      const token = await trustToken(["--name", "once"]);
      await ok("stranger-conf", ["remote", "add", "berth", token]);
      const again = await lxc("team-conf", ["remote", "add", "berth", token]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("not authorized");
    });

    it("remote add by URL with --accept-certificate, the token given as the password", async () => {
      const token = await trustToken(["--name", "bob"]);
      mkdirSync(join(server.dir, "bob-conf"), { recursive: true });
      await ok("bob-conf", [
        "remote",
        "add",
        "berth",
        server.httpsUrl ?? "",
        "--accept-certificate",
        "--password",
        token,
      ]);
      expect(await ok("bob-conf", ["info", "berth:"])).toContain("auth: trusted");
      expect((await server.trust.store.listCertificates()).map((c) => c.name)).toContain("bob");
    });

    it("a restricted certificate sees only its project and is refused elsewhere with LXD's text", async () => {
      await server
        .local()
        .instances.create(
          { name: "t1", source: { type: "image", alias: "ubuntu/24.04" } },
          { project: "team" },
        );
      const token = await trustToken(["--name", "team-client", "--restricted", "--projects", "team"]);
      await ok("team-conf", ["remote", "add", "berth", token]);
      expect(await ok("team-conf", ["project", "list", "berth:", "-f", "csv"])).toMatch(/^team/m);
      expect(await ok("team-conf", ["project", "list", "berth:", "-f", "csv"])).not.toMatch(/^default/m);
      expect(
        await ok("team-conf", ["list", "berth:", "--project", "team", "-c", "n", "-f", "csv"]),
      ).toContain("t1");
      const refused = await lxc("team-conf", ["list", "berth:", "--project", "default"]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("Error: not authorized");
      // Server-wide changes and the trust store are for unrestricted clients, as in LXD.
      const config = await lxc("team-conf", ["config", "set", "berth:", "instances.placement.scriptlet", ""]);
      expect(config.stderr).toContain("Error: not authorized");
      const trustList = await lxc("team-conf", ["config", "trust", "list", "berth:"]);
      expect(trustList.stderr).toContain("Error: not authorized");
    });

    it("trust list-tokens shows pending tokens; revoke-token cancels one, which no client can then use", async () => {
      const carol = await trustToken(["--name", "carol"]);
      const dave = await trustToken(["--name", "dave", "--restricted", "--projects", "team"]);
      const listed = await ok("admin-conf", ["config", "trust", "list-tokens", "-f", "csv"]);
      // Listed as LXD lists them, but without the secret: berthd keeps only its hash, and the
      // secret was shown once, when the token was made (LXD would print the whole token again).
      const decode = (t: string) => JSON.parse(Buffer.from(t, "base64").toString("utf8"));
      for (const [name, printed] of [
        ["carol", carol],
        ["dave", dave],
      ] as const) {
        const shown = new RegExp(`^${name},([^,]+),`, "m").exec(listed)?.[1] ?? "";
        expect(decode(shown)).toEqual({ ...decode(printed), secret: "" });
        expect(listed).not.toContain(decode(printed).secret);
      }
      // What lxc asked for: the token operations of the default project.
      expect(server.logs.some((l) => l.path === "/1.0/operations" && l.principal === "unix-socket")).toBe(
        true,
      );
      await ok("admin-conf", ["config", "trust", "revoke-token", "carol"]);
      const after = await ok("admin-conf", ["config", "trust", "list-tokens", "-f", "csv"]);
      expect(after).not.toContain("carol");
      expect(after).toContain("dave");
      expect(server.logs.some((l) => l.msg === "trust token revoked" && l.name === "carol")).toBe(true);
      mkdirSync(join(server.dir, "carol-conf"), { recursive: true });
      const refused = await lxc("carol-conf", ["remote", "add", "berth", carol]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("not authorized");
      const unknown = await lxc("admin-conf", ["config", "trust", "revoke-token", "nobody"]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain("No certificate add token for member nobody");
      // A redeemed token is no longer pending.
      mkdirSync(join(server.dir, "dave-conf"), { recursive: true });
      await ok("dave-conf", ["remote", "add", "berth", dave]);
      expect(await ok("admin-conf", ["config", "trust", "list-tokens", "-f", "csv"])).not.toContain("dave");
    });

    it("trust remove: the certificate is no longer trusted", async () => {
      const fingerprint =
        (await server.trust.store.listCertificates()).find((c) => c.name === "once")?.fingerprint ?? "";
      await ok("admin-conf", ["config", "trust", "remove", fingerprint.slice(0, 12)]);
      const info = await ok("stranger-conf", ["info", "berth:"]);
      expect(info).toContain("auth: untrusted");
    });
  },
);
