/**
 * The hints berthd prints are commands: each is run here exactly as printed,
 * in the folder berthd was started from, as a newcomer pastes it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BerthApi } from "@berth/client/node";
import { afterAll, describe, expect, it } from "vitest";
import { MAIN, startDaemon } from "../testing/daemon.fixture.js";

const sh = promisify(execFile);
/** The repository's `berthd` wrapper, which `pnpm start` runs. */
const WRAPPER = new URL("../../../../berthd", import.meta.url).pathname;

/** The line of `stdout` that starts with `prefix` (after indentation), without the indentation. */
function printedLine(stdout: string, prefix: string): string {
  const line = stdout.split("\n").find((l) => l.trimStart().startsWith(prefix));
  if (line === undefined) throw new Error(`No line starting with "${prefix}" in:\n${stdout}`);
  return line.trim();
}

describe("berthd's printed hints work when pasted", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-hints-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("first start through the wrapper: the token command, run in the same folder, serves this server", async () => {
    const folder = mkdtempSync(join(dir, "wrapper-"));
    const server = await startDaemon(
      ["--db", "first.db", "--listen", "127.0.0.1:0", "--socket", "none", "--state-dir", "none"],
      process.env,
      { cwd: folder, command: WRAPPER },
    );
    try {
      const hint = printedLine(server.stdout(), `${WRAPPER} token create admin --admin`);
      expect(hint).toBe(`${WRAPPER} token create admin --admin --db ${join(folder, "first.db")}`);
      const { stdout } = await sh("sh", ["-c", `${hint} --json`], { cwd: folder });
      const token = (JSON.parse(stdout) as { token: string }).token;
      expect(await new BerthApi({ url: server.url, token }).members.names()).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it("the demo on TCP only: its TOKEN and curl lines, pasted, list the demo members", async () => {
    const folder = mkdtempSync(join(dir, "demo-"));
    const server = await startDaemon(
      ["--db", "demo.db", "--listen", "127.0.0.1:0", "--socket", "none", "--state-dir", "none", "--demo"],
      process.env,
      { cwd: folder },
    );
    try {
      expect(printedLine(server.stdout(), "No API tokens")).toBeDefined();
      expect(printedLine(server.stdout(), "node ")).toBe(
        `node ${MAIN} token create admin --admin --db ${join(folder, "demo.db")}`,
      );
      const tokenLine = printedLine(server.stdout(), "TOKEN=$(");
      const curlLine = printedLine(server.stdout(), "curl -s -H");
      const { stdout } = await sh("sh", ["-c", `${tokenLine}\n${curlLine}`], { cwd: folder });
      const members = (JSON.parse(stdout) as { metadata: { server_name: string }[] }).metadata;
      expect(members.map((m) => m.server_name)).toEqual(["node1", "node2", "node3", "node4"]);
    } finally {
      await server.stop();
    }
  });

  it("--log-file: request lines go to the file it names, not to the terminal", async () => {
    const folder = mkdtempSync(join(dir, "log-"));
    const server = await startDaemon(
      ["--db", "log.db", "--listen", "127.0.0.1:0", "--socket", "none", "--state-dir", "none"].concat([
        "--log-file",
        "logs/berthd.log",
        "--demo",
      ]),
      process.env,
      { cwd: folder },
    );
    const file = join(folder, "logs", "berthd.log");
    try {
      expect(server.stdout()).toContain(`Log (JSON lines, one per request): ${file}\n`);
      // Without a token: refused, and logged like any request.
      expect((await fetch(`${server.url}/1.0/instances`)).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(readFileSync(file, "utf8")).toMatch(
      /"path":"\/1\.0\/instances"[^\n]*"status":401[^\n]*"msg":"request"/,
    );
    expect(server.stdout()).not.toContain('"msg":"request"');
  });
});
