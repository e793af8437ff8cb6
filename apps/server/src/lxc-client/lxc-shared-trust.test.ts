/**
 * Two real berthd on one database (a SQLite file, then PostgreSQL) share
 * one trust store: a token made on one is listed, revoked or redeemed on
 * the other, and a certificate trusted or removed through one counts on
 * the other at once. Driven by the real `lxc` client over each server's
 * socket and HTTPS.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PostgresServer, postgresUnavailable, startPostgres } from "@berth/postgres-test-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningDaemon, startDaemon } from "../testing/daemon.fixture.js";
import { describeWithLxc, type LxcRun, runLxc } from "./lxc-runner.fixture.js";

interface Pair {
  dir: string;
  servers: Record<"a" | "b", RunningDaemon>;
}

async function startPair(dir: string, db: string): Promise<Pair> {
  const start = (name: "a" | "b") => {
    mkdirSync(join(dir, name), { recursive: true });
    return startDaemon(
      ["--db", db, "--listen", "127.0.0.1:0", "--socket", join(dir, name, "unix.socket")].concat([
        "--state-dir",
        join(dir, `${name}-state`),
      ]),
    );
  };
  // One after the other: the first applies the migrations.
  const a = await start("a");
  const b = await start("b");
  return { dir, servers: { a, b } };
}

function sharedTrustSuite(name: string, database: (dir: string) => Promise<string>, skip?: string) {
  describeWithLxc(`lxc shared trust (${name})`)(
    `two berthd on one ${name} database share one trust store`,
    { timeout: 180_000 },
    () => {
      if (skip !== undefined) {
        it.skip(`skipped: ${skip}`, () => {});
        return;
      }
      let pair: Pair;
      /** `lxc` whose local server is berthd `server`, with client config `conf` (one client each). */
      const lxc = (server: "a" | "b", conf: string, args: string[]): Promise<LxcRun> => {
        mkdirSync(join(pair.dir, conf), { recursive: true });
        return runLxc({ lxdDir: join(pair.dir, server), confDir: join(pair.dir, conf) }, args);
      };
      const ok = async (server: "a" | "b", conf: string, args: string[]) => {
        const run = await lxc(server, conf, args);
        if (run.code !== 0) throw new Error(`lxc ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
        return run.stdout;
      };
      const trustToken = async (server: "a" | "b", client: string) =>
        (await ok(server, `admin-${server}`, ["config", "trust", "add", "--name", client]))
          .trim()
          .split("\n")
          .at(-1) ?? "";
      const remoteAdd = (conf: string, remote: "a" | "b", password?: string) =>
        lxc(remote, conf, [
          "remote",
          "add",
          remote,
          pair.servers[remote].httpsUrl ?? "",
          "--accept-certificate",
          ...(password !== undefined ? ["--password", password] : []),
        ]);

      beforeAll(async () => {
        const dir = mkdtempSync(join(tmpdir(), "berth-shared-trust-"));
        pair = await startPair(dir, await database(dir));
      });
      afterAll(async () => {
        if (pair === undefined) return;
        await Promise.all([pair.servers.a.stop(), pair.servers.b.stop()]);
        rmSync(pair.dir, { recursive: true, force: true });
      });

      it("a token made on one server is listed on the other and redeemed there; the certificate is trusted by both", async () => {
        const token = await trustToken("a", "alice");
        // b lists it as a token for itself (its own fingerprint and address), without its secret
        // (only its hash is stored; the secret was shown once, by a).
        const listed = await ok("b", "admin-b", ["config", "trust", "list-tokens", "-f", "csv"]);
        const onB = /^alice,([^,]+),/m.exec(listed)?.[1] ?? "";
        const decode = (t: string) => JSON.parse(Buffer.from(t, "base64").toString("utf8"));
        expect(decode(onB)).toMatchObject({
          client_name: "alice",
          secret: "",
          addresses: [new URL(pair.servers.b.httpsUrl ?? "").host],
        });
        // Redeemed on b, by URL (the token names a's address).
        const added = await remoteAdd("alice", "b", token);
        expect(added.code).toBe(0);
        expect(await ok("b", "alice", ["info", "b:"])).toContain("auth: trusted");
        // a trusts it too: remote add needs no token there.
        expect((await remoteAdd("alice", "a")).code).toBe(0);
        expect(await ok("a", "alice", ["info", "a:"])).toContain("auth: trusted");
        expect(await ok("a", "admin-a", ["config", "trust", "list-tokens", "-f", "csv"])).not.toContain(
          "alice",
        );
      });

      it("a token revoked on one server is refused by the other", async () => {
        const token = await trustToken("a", "carol");
        await ok("b", "admin-b", ["config", "trust", "revoke-token", "carol"]);
        expect(await ok("a", "admin-a", ["config", "trust", "list-tokens", "-f", "csv"])).not.toContain(
          "carol",
        );
        const refused = await remoteAdd("carol", "a", token);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain("not authorized");
      });

      it("a certificate removed through one server is untrusted by the other as soon as it is told", async () => {
        const listed = await ok("b", "admin-b", ["config", "trust", "list", "-f", "csv"]);
        const fingerprint = /alice.*?\b([0-9a-f]{12})\b/.exec(listed)?.[1];
        expect(fingerprint).toBeDefined();
        // a has looked alice's certificate up (and on PostgreSQL keeps the answer in memory).
        expect(await ok("a", "alice", ["info", "a:"])).toContain("auth: trusted");
        await ok("b", "admin-b", ["config", "trust", "remove", fingerprint ?? ""]);
        expect(await ok("b", "alice", ["info", "b:"])).toContain("auth: untrusted");
        // SQLite: at once; PostgreSQL: once b's notification reaches a (at most 10 s, KEEP_MS).
        await expect
          .poll(() => ok("a", "alice", ["info", "a:"]), { timeout: 12_000, interval: 200 })
          .toContain("auth: untrusted");
      });
    },
  );
}

sharedTrustSuite("SQLite", async (dir) => join(dir, "berth.db"));

let postgres: PostgresServer | undefined;
const unavailable = postgresUnavailable();
sharedTrustSuite(
  "PostgreSQL",
  async () => {
    postgres = await startPostgres();
    return postgres.createDatabase();
  },
  unavailable,
);
afterAll(async () => {
  await postgres?.stop();
});
