/**
 * A real PostgreSQL server for tests and benchmarks: Debian's binaries
 * (`/usr/lib/postgresql/15/bin`, or `BERTH_PG_BIN`), `initdb` in a temp
 * folder, `pg_ctl` on a free loopback port. PostgreSQL refuses to run as
 * root, so as root every command runs as the `postgres` system user
 * (`runuser`), which owns the temp folder. No mocks: the tests talk to the
 * real server over TCP, exactly as berthd does.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export const DEFAULT_PG_BIN = "/usr/lib/postgresql/15/bin";

export interface PostgresServerOptions {
  /**
   * Extra `postgres -c` settings. By default a test server skips fsync
   * (`fsync=off`, `synchronous_commit=off`, `full_page_writes=off`): test
   * data is thrown away, and on this shared machine an fsync costs ~2.5 ms.
   * Pass `{ durable: true }` to keep PostgreSQL's defaults (benchmarks).
   */
  settings?: Record<string, string>;
  durable?: boolean;
}

export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  /** Superuser name (trust authentication on loopback). */
  readonly user: string;
  readonly dataDir: string;
  /** A connection URL for one database. */
  url(database: string): string;
  /** Creates a fresh, empty database and answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (immediate shutdown) and removes its folder. */
  stop(): Promise<void>;
}

function binDir(): string {
  const dir = process.env.BERTH_PG_BIN ?? DEFAULT_PG_BIN;
  if (!existsSync(join(dir, "pg_ctl")) || !existsSync(join(dir, "initdb"))) {
    throw new Error(
      `PostgreSQL server binaries not found in ${dir} (initdb, pg_ctl): install Debian's postgresql package ` +
        "(scripts/test-deps.sh does), or point BERTH_PG_BIN at another bin folder",
    );
  }
  return dir;
}

/** A free loopback port picked by the kernel. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** The command, as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return isRoot() ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function postgresUid(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

const FAST_SETTINGS: Record<string, string> = {
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
};

/** Servers started by this process, stopped on exit even when a test run is cut short. */
const running = new Set<{ stopSync(): void }>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const server of running) server.stopSync();
  });
}

let databaseCounter = 0;

export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "berth-pg-"));
  const dataDir = join(dir, "data");
  const user = "berth";
  if (isRoot()) {
    const { uid, gid } = postgresUid();
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const exec = async (command: string, args: string[]) => {
    const [file, argv] = asServerUser(join(bin, command), args);
    try {
      await run(file, argv, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const detail = (error as { stderr?: string }).stderr ?? String(error);
      throw new Error(`${command} failed: ${detail.trim()}`);
    }
  };
  await exec("initdb", ["-D", dataDir, "-U", user, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freeLoopbackPort();
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: dir,
    max_connections: "300",
    ...(options.durable ? {} : FAST_SETTINGS),
    ...options.settings,
  };
  const serverArgs = Object.entries(settings)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(" ");
  await exec("pg_ctl", [
    "-D",
    dataDir,
    "-l",
    join(dir, "server.log"),
    "-w",
    "-t",
    "60",
    "-o",
    serverArgs,
    "start",
  ]);
  const host = "127.0.0.1";
  const url = (database: string) => `postgres://${user}@${host}:${port}/${database}`;
  const handle = {
    stopSync() {
      const [file, argv] = asServerUser(join(bin, "pg_ctl"), [
        "-D",
        dataDir,
        "-m",
        "immediate",
        "-w",
        "stop",
      ]);
      try {
        execFileSync(file, argv, { stdio: "ignore", cwd: tmpdir() });
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(handle);
  installExitHook();
  return {
    host,
    port,
    user,
    dataDir,
    url,
    async createDatabase(name?: string) {
      databaseCounter += 1;
      const database = name ?? `t_${process.pid}_${databaseCounter}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
      } finally {
        await admin.end();
      }
      return url(database);
    },
    async stop() {
      if (!running.delete(handle)) return;
      const [file, argv] = asServerUser(join(bin, "pg_ctl"), [
        "-D",
        dataDir,
        "-m",
        "immediate",
        "-w",
        "stop",
      ]);
      await run(file, argv, { cwd: tmpdir() }).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Who runs the server's commands (for messages). */
export function serverUser(): string {
  return isRoot() ? "postgres" : userInfo().username;
}
