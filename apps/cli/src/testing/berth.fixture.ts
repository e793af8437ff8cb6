import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The built binaries the tests drive: the real daemon and the real CLI, as
 * users run them. berthd is found by its place in the workspace, not
 * through a package dependency (the CLI depends on @berth/client only);
 * apps/cli/turbo.json has turbo build it before these tests.
 */
export const BERTHD = resolve(here, "../../../server/dist/main.js");
export const BERTH = resolve(here, "../../dist/main.js");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunningBerthd {
  dir: string;
  socket: string;
  url: string;
  db: string;
  stop(): Promise<void>;
}

/** Starts berthd on a temp database, a temp socket and an ephemeral loopback port. */
export async function startBerthd(extraArgs: (dir: string) => string[] = () => []): Promise<RunningBerthd> {
  if (!existsSync(BERTHD)) {
    throw new Error(
      `berthd is not built (${BERTHD} is missing): run npx pnpm@10.34.8 --filter @berth/server build`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "berth-e2e-"));
  const socket = join(dir, "berthd.sock");
  const db = join(dir, "berth.db");
  const child = spawn(
    process.execPath,
    [BERTHD, "--db", db, "--listen", "127.0.0.1:0", "--socket", socket, "--tick", "1", ...extraArgs(dir)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    child.once("exit", (code) => reject(new Error(`berthd exited with ${code} before listening: ${stderr}`)));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      if (!line.startsWith("{")) return;
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === "berthd listening" && entry.url) resolveUrl(entry.url);
    });
  });
  return {
    dir,
    socket,
    url,
    db,
    stop: () => stopChild(child, dir),
  };
}

function stopChild(child: ChildProcess, dir: string): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      resolveStop();
      return;
    }
    child.once("exit", () => {
      rmSync(dir, { recursive: true, force: true });
      resolveStop();
    });
    child.kill("SIGTERM");
  });
}

/** Runs a command and collects its output (stdin closed unless `input` is given). */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
    // A command that exits before reading its input closes the pipe: the exit code tells, not an EPIPE.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input ?? "");
  });
}

/** The environment of a CLI run: the test server's socket, a private config dir, nothing inherited that changes output. */
export function cliEnv(server: RunningBerthd, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "SYSTEMROOT"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, BERTH_SOCKET: server.socket, BERTH_CONFIG_DIR: join(server.dir, "config"), ...extra };
}

/** `berth ARGS...` against the server, as a user runs it: the built binary in its own process. */
export function berth(
  server: RunningBerthd,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  return runProcess(process.execPath, [BERTH, ...args], cliEnv(server, options.env), options.input);
}

type BuiltCli = typeof import("../cli.js");
let builtCli: Promise<BuiltCli> | undefined;

/** A stream that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * `berth ARGS...` against the server inside this process: the built CLI's
 * `runCli` (the same argument parsing, requests, output and exit code as the
 * binary, whose `main.ts` only hands it the process streams) with piped,
 * non-terminal streams and the same environment as `berth()`. Starting node
 * and loading the CLI costs about 0.3 s of CPU per run, which made the e2e
 * files CPU-bound on a loaded 2-core machine; steps that are about the binary
 * itself use `berth()`.
 */
export async function berthInProcess(
  server: RunningBerthd,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  builtCli ??= import(pathToFileURL(resolve(here, "../../dist/cli.js")).href) as Promise<BuiltCli>;
  const { runCli } = await builtCli;
  const stdout = capture();
  const stderr = capture();
  const code = await runCli(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.input !== undefined ? [options.input] : []),
    env: cliEnv(server, options.env),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * The two checks every e2e step makes (in process), bound to the file's server
 * (started in its `beforeAll`, hence a getter): `ok` expects exit 0 with nothing on stderr
 * and returns stdout; `fails` expects the exit code and the stderr text or pattern.
 */
export function cliChecks(server: () => RunningBerthd): {
  ok(args: string[], input?: string): Promise<string>;
  fails(args: string[], code: number, stderr: string | RegExp): Promise<void>;
} {
  return {
    async ok(args, input) {
      const result = await berthInProcess(server(), args, input !== undefined ? { input } : {});
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
      return result.stdout;
    },
    async fails(args, code, stderr) {
      const result = await berthInProcess(server(), args);
      expect({ args, code: result.code }).toEqual({ args, code });
      if (typeof stderr === "string") expect(result.stderr).toBe(stderr);
      else expect(result.stderr).toMatch(stderr);
    },
  };
}

/** Writes a file into the server's temp dir and returns its path. */
export function writeTemp(server: RunningBerthd, name: string, text: string): string {
  const path = join(server.dir, name);
  writeFileSync(path, text);
  return path;
}

/** A member heartbeat body (LXD ClusterMemberState). */
export const MEMBER_STATE_YAML = `sysinfo:
  uptime: 3600
  load_averages: [0.1, 0.2, 0.3]
  total_ram: 68719476736
  free_ram: 34359738368
  shared_ram: 0
  buffered_ram: 0
  total_swap: 0
  free_swap: 0
  processes: 200
  logical_cpus: 16
storage_pools: {}
`;
