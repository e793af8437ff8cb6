/**
 * HTTPS turned on and moved the LXD way: `lxc config set
 * core.https_address ADDRESS` on the local socket moves berthd's TCP
 * listener (HTTPS and plain HTTP on one port) there at once; an address
 * that cannot be bound is refused with LXD's "Cannot set" error and the
 * listener stays; unset, it is back on --listen. Real berthd, real lxc.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "@berth/postgres-test-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningDaemon, startDaemon } from "../testing/daemon.fixture.js";
import { describeWithLxc, runLxc } from "./lxc-runner.fixture.js";

describeWithLxc("lxc core.https_address")(
  "core.https_address moves berthd's listener",
  { timeout: 120_000 },
  () => {
    let dir: string;
    let daemon: RunningDaemon;
    const lxc = (conf: string, args: string[]) => {
      mkdirSync(join(dir, conf), { recursive: true });
      return runLxc({ lxdDir: join(dir, "lxd"), confDir: join(dir, conf) }, args);
    };
    const answers = async (url: string) =>
      fetch(`${url}/1.0`).then(
        (r) => r.status,
        () => 0,
      );

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "berth-https-address-"));
      mkdirSync(join(dir, "lxd"));
      daemon = await startDaemon([
        "--db",
        join(dir, "berth.db"),
        "--listen",
        "127.0.0.1:0",
        "--socket",
        join(dir, "lxd", "unix.socket"),
        "--state-dir",
        join(dir, "state"),
      ]);
    });
    afterAll(async () => {
      await daemon?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("moves there at once, HTTPS for lxc remote add and HTTP for the console; unset goes back to --listen", async () => {
      const port = await freeLoopbackPort();
      const set = await lxc("admin", ["config", "set", "core.https_address", `127.0.0.1:${port}`]);
      expect(set.code).toBe(0);
      expect(await answers(daemon.url)).toBe(0);
      expect(await answers(`http://127.0.0.1:${port}`)).toBe(401);
      expect((await lxc("admin", ["config", "get", "core.https_address"])).stdout.trim()).toBe(
        `127.0.0.1:${port}`,
      );
      const token = (await lxc("admin", ["config", "trust", "add", "--name", "alice"])).stdout
        .trim()
        .split("\n")
        .at(-1);
      // The token names the new address.
      expect(JSON.parse(Buffer.from(token ?? "", "base64").toString("utf8")).addresses).toEqual([
        `127.0.0.1:${port}`,
      ]);
      expect((await lxc("alice", ["remote", "add", "berth", token ?? ""])).code).toBe(0);
      expect((await lxc("alice", ["info", "berth:"])).stdout).toContain("auth: trusted");
      expect(daemon.stdout()).toContain('"msg":"TCP listener moved"');

      const unset = await lxc("admin", ["config", "unset", "core.https_address"]);
      expect(unset.code).toBe(0);
      expect(await answers(`http://127.0.0.1:${port}`)).toBe(0);
    });

    it("refuses an address it cannot bind with LXD's error, and keeps listening where it was", async () => {
      const taken = createServer();
      const port = await freeLoopbackPort();
      await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
      try {
        const refused = await lxc("admin", ["config", "set", "core.https_address", `127.0.0.1:${port}`]);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(
          `Error: Cannot set "core.https_address" to "127.0.0.1:${port}": cannot listen on`,
        );
        expect((await lxc("admin", ["config", "get", "core.https_address"])).stdout.trim()).toBe("");
        const bad = await lxc("admin", ["config", "set", "core.https_address", "not an address"]);
        expect(bad.stderr).toContain('must be an address such as ":8443"');
        // Still answering over the socket, and on a TCP port (the one --listen gave).
        expect((await lxc("admin", ["info"])).code).toBe(0);
      } finally {
        taken.close();
      }
    });
  },
);
