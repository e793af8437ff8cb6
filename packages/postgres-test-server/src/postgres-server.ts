/**
 * A real PostgreSQL server for tests and benchmarks: Debian's binaries
 * (the newest `/usr/lib/postgresql/N/bin`, or `BERTH_PG_BIN`), `initdb` in a temp
 * folder, `pg_ctl` on a free loopback port. PostgreSQL refuses to run as
 * root, so as root every command runs as the `postgres` system user
 * (`runuser`), which owns the temp folder. No mocks: the tests talk to the
 * real server over TCP, exactly as berthd does.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestDatabase } from "./databases.js";

const run = promisify(execFile);

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
  /**
   * Shuts the server down with `pg_ctl stop -m mode` (fast: clients are
   * told, 57P01; immediate: no goodbye, crash recovery at the next start)
   * and keeps its data: `up()` starts it again on the same port.
   */
  down(mode: "fast" | "immediate"): Promise<void>;
  /** Starts a server `down()` stopped; resolves once it accepts connections. */
  up(): Promise<void>;
  /** Stops the server (immediate shutdown) and removes its folder. */
  stop(): Promise<void>;
}

const PG_ROOT = "/usr/lib/postgresql";

/** The bin folder to use: `BERTH_PG_BIN`, else the newest Debian `postgresql-N` that has the server binaries. */
export function postgresBinDir(): string | undefined {
  const hasServer = (dir: string) => existsSync(join(dir, "pg_ctl")) && existsSync(join(dir, "initdb"));
  const chosen = process.env.BERTH_PG_BIN;
  if (chosen !== undefined && chosen !== "") return hasServer(chosen) ? chosen : undefined;
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((entry) => /^\d+$/.test(entry))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.map((version) => join(PG_ROOT, version, "bin")).find(hasServer);
}

/**
 * Why no PostgreSQL server can be started here, in words a skipped test can
 * print; undefined when one can. Missing: the server binaries (Debian's
 * `postgresql` package, which scripts/test-deps.sh installs), or, as root,
 * the `postgres` user that runs them.
 */
export function postgresUnavailable(): string | undefined {
  const chosen = process.env.BERTH_PG_BIN;
  if (postgresBinDir() === undefined) {
    const where = chosen ? `BERTH_PG_BIN=${chosen}` : `${PG_ROOT}/<version>/bin`;
    return `PostgreSQL server binaries (initdb, pg_ctl) not found in ${where}: install Debian's postgresql package (scripts/test-deps.sh does) or point BERTH_PG_BIN at a bin folder`;
  }
  if (isRoot()) {
    try {
      postgresUid();
    } catch {
      return "running as root, but there is no postgres system user to run PostgreSQL as (Debian's postgresql package creates it)";
    }
  }
  return undefined;
}

function binDir(): string {
  const dir = postgresBinDir();
  const unavailable = postgresUnavailable();
  if (dir === undefined || unavailable !== undefined) throw new Error(unavailable);
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
  const id = (flag: string) =>
    Number(
      execFileSync("id", [flag, "postgres"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim(),
    );
  return { uid: id("-u"), gid: id("-g") };
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
  const start = () =>
    exec("pg_ctl", [
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
  await start();
  const host = "127.0.0.1";
  const url = (database: string) => `postgres://${user}@${host}:${port}/${database}`;
  const [stopFile, stopArgs] = asServerUser(join(bin, "pg_ctl"), [
    "-D",
    dataDir,
    "-m",
    "immediate",
    "-w",
    "stop",
  ]);
  const handle = {
    stopSync() {
      try {
        execFileSync(stopFile, stopArgs, { stdio: "ignore", cwd: tmpdir() });
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
    createDatabase: (name?: string) => createTestDatabase(url("postgres"), name),
    down: (mode) => exec("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"]),
    up: start,
    async stop() {
      if (!running.delete(handle)) return;
      await run(stopFile, stopArgs, { cwd: tmpdir() }).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
