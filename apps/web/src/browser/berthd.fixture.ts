/**
 * A real berthd for the browser tests and the render bench: the built
 * entry point (`apps/server/dist/main.js`, what `pnpm start` runs) on a
 * temp database and a free loopback port, with an admin token created the
 * way an operator creates the first one.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Turbo builds @berth/server before this package's tests (apps/web/turbo.json). */
export const BERTHD_MAIN = new URL("../../../server/dist/main.js", import.meta.url).pathname;

export interface Berthd {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The console's address, as berthd prints it. */
  consoleUrl: string;
  adminToken: string;
  db: string;
  /** Creates another token on the same database (berthd reads tokens per request). */
  createToken(name: string, flags: string[]): Promise<string>;
  stop(): Promise<void>;
}

async function createToken(db: string, name: string, flags: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [
    BERTHD_MAIN,
    "token",
    "create",
    name,
    ...flags,
    "--db",
    db,
    // The first token makes the database berthd then starts on.
    "--init",
    "--json",
  ]);
  return (JSON.parse(stdout) as { token: string }).token;
}

/**
 * Starts berthd; `args` adds options (`--demo` loads the four-member sample
 * cluster). Resolves once it prints the console's address.
 */
export async function startBerthd(args: string[] = []): Promise<Berthd> {
  const dir = mkdtempSync(join(tmpdir(), "berth-web-"));
  const db = join(dir, "berth.db");
  const adminToken = await createToken(db, "admin", ["--admin"]);
  const child: ChildProcess = spawn(
    process.execPath,
    [BERTHD_MAIN, "--db", db, "--listen", "127.0.0.1:0", "--socket", "none", "--log-level", "warn", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  const consoleUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`berthd did not start:\n${out}\n${err}`)), 60_000);
    child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Web console: (http:\/\/\S+\/ui\/)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`berthd exited early (${code}):\n${out}\n${err}`));
    });
  });
  return {
    url: consoleUrl.replace(/\/ui\/$/, ""),
    consoleUrl,
    adminToken,
    db,
    createToken: (name, flags) => createToken(db, name, flags),
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
