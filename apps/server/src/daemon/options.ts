import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  COMMIT_DELAY_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_READ_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  isPostgresUrl,
} from "@berth/adapter-postgres/settings";
import { DEFAULT_BUSY_TIMEOUT_MS, DEFAULT_FEED_RETENTION_MS } from "@berth/adapter-sqlite";
import { defaultSocketPath } from "@berth/client/node";
import { DEFAULT_BODY_LIMIT_BYTES } from "../app/app.js";
import { DEFAULT_BODY_MEMORY_BYTES } from "../http/body-budget.js";
import { DEFAULT_MAX_IN_FLIGHT } from "../middleware/shed-overload.js";
import { resolveGroup } from "./socket-group.js";

export const DEFAULT_DB = "berth.db";
export const DEFAULT_LISTEN = "127.0.0.1:8443";

/** Settings of a PostgreSQL database (`--db postgres://…`); ignored for SQLite. */
export interface DatabaseOptions {
  /** Connections for writes. */
  poolSize: number;
  /** Connections for reads (the change feed, lookups), apart so they never queue behind writers. */
  readPoolSize: number;
  /** The longest a write waits for a row another server holds, then 503 (ms). */
  lockTimeoutMs: number;
  /** The longest any one statement runs (ms). */
  statementTimeoutMs: number;
  /** While other servers write, the pause after a busy claim transaction so more creates share the next (ms; 0: none). */
  commitDelayMs: number;
  /** How long change-log entries are kept (ms); a server away longer re-hydrates from a snapshot. */
  feedRetentionMs: number;
}

/** Shorter would send servers paused by a slow disk or a GC back to a full snapshot. */
const MIN_FEED_RETENTION_SECONDS = 10;

/** Placements run one at a time; a second worker serves dry runs and checks beside them. */
export const DEFAULT_SCRIPTLET_WORKERS = 2;

export interface DaemonOptions {
  db: string;
  database: DatabaseOptions;
  /** undefined: no TCP listener. */
  listen: { host: string; port: number } | undefined;
  /** undefined: no Unix socket. */
  socket: string | undefined;
  /** Group id that owns the socket (mode 0660: its members are local admins); undefined: berthd's own group. */
  socketGroup: number | undefined;
  tls: { cert: Buffer; key: Buffer } | undefined;
  /** Where berthd keeps its own certificate (LXD's server.crt); undefined: none ("--state-dir none"). */
  stateDir: string | undefined;
  bodyLimitBytes: number;
  /** Request-body bytes all requests together may hold while receiving. */
  bodyMemoryBytes: number;
  /** Requests in progress at once; past it, more get 503 with Retry-After. */
  maxInFlight: number;
  logLevel: string;
  /** Where the JSON log lines go; undefined: stdout. */
  logFile: string | undefined;
  /** How often the offline/healing task runs. */
  tickSeconds: number;
  /** Worker threads that run placement scriptlets; 0 runs them on the event loop. */
  scriptletWorkers: number;
  /** Fixed heap limit of each scriptlet worker (MiB); undefined: derived from instances.placement.scriptlet.max_memory. */
  scriptletHeapMb: number | undefined;
  demo: boolean;
  /** Placement's noauth2 convention on /placement; only with loopback listeners. */
  placementNoauth: boolean;
  /** Ties among equally loaded members in this seed's order; undefined: join order (engine `tieSeed`). */
  tieSeed: number | undefined;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage: berthd [options]
       berthd token create NAME (--admin | --project P [--project P...]) [--db PATH] [--init] [--json]
       berthd token list [--db PATH] [--json]
       berthd token revoke NAME [--db PATH]
  (token commands work on the database berthd runs on; a file that does not exist is refused
   unless --init creates it)

Options (environment variable in brackets):
  --db PATH|URL        SQLite database file, :memory:, or a PostgreSQL URL postgres://user[:password]@host[:port]/database
                       (several berthd servers on one PostgreSQL database share one cluster) [BERTH_DB] (default ${DEFAULT_DB})
  --db-pool N          PostgreSQL: connections for writes [BERTH_DB_POOL] (default ${DEFAULT_POOL_SIZE})
  --db-read-pool N     PostgreSQL: connections for reads, never queued behind writes [BERTH_DB_READ_POOL] (default ${DEFAULT_READ_POOL_SIZE})
  --db-lock-timeout MS the longest a write waits for rows (PostgreSQL) or the write lock (SQLite) another
                       server holds; then the request gets 503 with Retry-After [BERTH_DB_LOCK_TIMEOUT]
                       (default ${DEFAULT_LOCK_TIMEOUT_MS}; SQLite: ${DEFAULT_BUSY_TIMEOUT_MS})
  --db-statement-timeout MS
                       PostgreSQL: the longest any one statement runs [BERTH_DB_STATEMENT_TIMEOUT] (default ${DEFAULT_STATEMENT_TIMEOUT_MS})
  --db-commit-delay MS PostgreSQL: while other servers write to the database, pause this long after a claim
                       transaction of 4 or more creates, so more concurrent creates share the next (fewer,
                       larger transactions for the shared database); 0: never [BERTH_DB_COMMIT_DELAY] (default ${COMMIT_DELAY_MS})
  --feed-retention SECONDS
                       how long the change log keeps entries; a server away longer (restart, network
                       pause) reloads everything from a snapshot instead of reading the log, so 15 minutes
                       covers ordinary outages while the log stays at 15 minutes of writes; at least
                       ${MIN_FEED_RETENTION_SECONDS} [BERTH_FEED_RETENTION] (default ${DEFAULT_FEED_RETENTION_MS / 1000})
  --listen HOST:PORT   TCP listener, "none" to disable [BERTH_LISTEN] (default ${DEFAULT_LISTEN})
  --socket PATH        Unix socket, "none" to disable [BERTH_SOCKET] (default ${defaultSocketPath()})
  --socket-group GROUP group owning the socket (name or id); its members are local admins [BERTH_SOCKET_GROUP]
  --tls-cert FILE      PEM certificate for HTTPS instead of berthd's own [BERTH_TLS_CERT]
  --tls-key FILE       PEM private key for --tls-cert [BERTH_TLS_KEY]
  --state-dir DIR      where berthd keeps its own certificate (server.crt, made on first start), with
                       which the TCP listener also speaks HTTPS; "none": plain HTTP only [BERTH_STATE_DIR]
                       (default /var/lib/berth as root, else $XDG_STATE_HOME/berth or ~/.local/state/berth)
  --body-limit BYTES   largest accepted request body [BERTH_BODY_LIMIT] (default ${DEFAULT_BODY_LIMIT_BYTES})
  --body-memory BYTES  request-body bytes all requests may hold at once [BERTH_BODY_MEMORY] (default ${DEFAULT_BODY_MEMORY_BYTES})
  --max-in-flight N    requests in progress at once; past it a request gets 503 with Retry-After at once
                       (GET /1.0 and /1.0/metrics are always answered) [BERTH_MAX_IN_FLIGHT] (default ${DEFAULT_MAX_IN_FLIGHT})
  --log-level LEVEL    trace|debug|info|warn|error [BERTH_LOG_LEVEL] (default info)
  --log-file FILE      append the JSON log lines (one per request at info) to FILE instead of
                       stdout [BERTH_LOG_FILE]
  --tick SECONDS       period of the offline/healing check [BERTH_TICK] (default 5)
  --scriptlet-workers N
                       worker threads running placement scriptlets off the event loop; 0 runs them on
                       it (blocking every request while one runs) [BERTH_SCRIPTLET_WORKERS] (default ${DEFAULT_SCRIPTLET_WORKERS})
  --scriptlet-heap-mb MIB
                       heap limit of each scriptlet worker; a worker past it is replaced and only its
                       placement fails [BERTH_SCRIPTLET_HEAP_MB] (default: twice
                       instances.placement.scriptlet.max_memory plus 128)
  --tie-seed N|random|join
                       order of ties among equally loaded members: join order (LXD's), or the order of
                       a seed of this server's own, so several servers on one database fill different
                       members instead of waiting for each other's row locks [BERTH_TIE_SEED]
                       (default: random with PostgreSQL, join with SQLite)
  --demo               load a small sample cluster if the database is empty
  --placement-noauth   /placement accepts Placement's noauth2 tokens ("admin" is an admin);
                       refused unless the TCP listener is loopback [BERTH_PLACEMENT_NOAUTH=1]
  -h, --help           show this help

Several servers on one PostgreSQL database (each answers the whole API; put them behind one load balancer):
  berthd --db postgres://berth@db.example.com/berth --listen 0.0.0.0:8443 --socket none   (on host A)
  berthd --db postgres://berth@db.example.com/berth --listen 0.0.0.0:8443 --socket none   (on host B)
  berthd --db postgres://berth@db.example.com/berth --listen 0.0.0.0:8443 --socket none   (on host C)
They keep in step through the database's change log; one of them at a time runs offline detection and
healing. Each takes ties among equally loaded members in an order of its own (--tie-seed). Tokens live in the database: create them once with
  berthd token create admin --admin --db postgres://berth@db.example.com/berth
`;

type Env = Record<string, string | undefined>;

export function parseListen(value: string): { host: string; port: number } | undefined {
  if (value === "none" || value === "") return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || host === undefined || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(
      `Invalid --listen "${value}": expected HOST:PORT such as ${DEFAULT_LISTEN} or [::1]:8443`,
    );
  }
  return { host, port };
}

function positiveNumber(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`Invalid ${flag} "${value}": expected a positive number`);
  return n;
}

/** A pause in ms, 0 included (at most a second: longer would hold every create back). */
function milliseconds(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1000)
    throw new UsageError(`Invalid ${flag} "${value}": expected milliseconds from 0 to 1000`);
  return n;
}

/** `--feed-retention`: whole seconds, at least MIN_FEED_RETENTION_SECONDS; returned in ms. */
export function parseFeedRetention(value: string | undefined): number {
  if (value === undefined) return DEFAULT_FEED_RETENTION_MS;
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isInteger(seconds) || seconds < MIN_FEED_RETENTION_SECONDS)
    throw new UsageError(
      `Invalid --feed-retention "${value}": expected a whole number of seconds, at least ${MIN_FEED_RETENTION_SECONDS}`,
    );
  return seconds * 1000;
}

function workerCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new UsageError(`Invalid --scriptlet-workers "${value}": expected a whole number from 0 to 64`);
  return n;
}

/** `--tie-seed`: "join" (undefined), "random" (drawn now) or a seed from 0 to 2^32 - 1. */
export function parseTieSeed(value: string): number | undefined {
  if (value === "join") return undefined;
  if (value === "random") return randomInt(0, 2 ** 32);
  const seed = Number(value);
  if (value.trim() === "" || !Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
    throw new UsageError(
      `Invalid --tie-seed "${value}": expected "random", "join" or a whole number from 0 to ${2 ** 32 - 1}`,
    );
  return seed;
}

const LOG_LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);

export function parseDaemonOptions(argv: string[], env: Env = process.env): DaemonOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      db: { type: "string" },
      listen: { type: "string" },
      socket: { type: "string" },
      "socket-group": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "state-dir": { type: "string" },
      "body-limit": { type: "string" },
      "body-memory": { type: "string" },
      "max-in-flight": { type: "string" },
      "log-level": { type: "string" },
      "log-file": { type: "string" },
      tick: { type: "string" },
      "scriptlet-workers": { type: "string" },
      "scriptlet-heap-mb": { type: "string" },
      "db-pool": { type: "string" },
      "db-read-pool": { type: "string" },
      "db-lock-timeout": { type: "string" },
      "db-statement-timeout": { type: "string" },
      "db-commit-delay": { type: "string" },
      "feed-retention": { type: "string" },
      demo: { type: "boolean" },
      "placement-noauth": { type: "boolean" },
      "tie-seed": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (values.help) throw new UsageError("");
  const certPath = values["tls-cert"] ?? env.BERTH_TLS_CERT;
  const keyPath = values["tls-key"] ?? env.BERTH_TLS_KEY;
  if ((certPath === undefined) !== (keyPath === undefined)) {
    throw new UsageError("--tls-cert and --tls-key go together: give both or neither");
  }
  const socketValue = values.socket ?? env.BERTH_SOCKET ?? defaultSocketPath(env);
  const groupValue = values["socket-group"] ?? env.BERTH_SOCKET_GROUP ?? "";
  const socketGroup = groupValue === "" ? undefined : resolveGroup(groupValue);
  if (typeof socketGroup === "object") throw new UsageError(socketGroup.error);
  const logLevel = values["log-level"] ?? env.BERTH_LOG_LEVEL ?? "info";
  if (!LOG_LEVELS.has(logLevel)) throw new UsageError(`Invalid --log-level "${logLevel}"`);
  const db = values.db ?? env.BERTH_DB ?? DEFAULT_DB;
  const count = (flag: string, value: string | undefined, fallback: number) =>
    value === undefined ? fallback : Math.floor(positiveNumber(flag, value));
  const options: DaemonOptions = {
    db,
    database: {
      poolSize: count("--db-pool", values["db-pool"] ?? env.BERTH_DB_POOL, DEFAULT_POOL_SIZE),
      readPoolSize: count(
        "--db-read-pool",
        values["db-read-pool"] ?? env.BERTH_DB_READ_POOL,
        DEFAULT_READ_POOL_SIZE,
      ),
      lockTimeoutMs: count(
        "--db-lock-timeout",
        values["db-lock-timeout"] ?? env.BERTH_DB_LOCK_TIMEOUT,
        isPostgresUrl(db) ? DEFAULT_LOCK_TIMEOUT_MS : DEFAULT_BUSY_TIMEOUT_MS,
      ),
      statementTimeoutMs: count(
        "--db-statement-timeout",
        values["db-statement-timeout"] ?? env.BERTH_DB_STATEMENT_TIMEOUT,
        DEFAULT_STATEMENT_TIMEOUT_MS,
      ),
      commitDelayMs: milliseconds(
        "--db-commit-delay",
        values["db-commit-delay"] ?? env.BERTH_DB_COMMIT_DELAY,
        COMMIT_DELAY_MS,
      ),
      feedRetentionMs: parseFeedRetention(values["feed-retention"] ?? env.BERTH_FEED_RETENTION),
    },
    listen: parseListen(values.listen ?? env.BERTH_LISTEN ?? DEFAULT_LISTEN),
    socket: socketValue === "none" || socketValue === "" ? undefined : socketValue,
    socketGroup,
    tls:
      certPath !== undefined && keyPath !== undefined
        ? { cert: readFileSync(certPath), key: readFileSync(keyPath) }
        : undefined,
    stateDir: stateDirOf(values["state-dir"] ?? (env.BERTH_STATE_DIR || defaultStateDir(env))),
    bodyLimitBytes: Math.floor(
      positiveNumber(
        "--body-limit",
        values["body-limit"] ?? env.BERTH_BODY_LIMIT ?? String(DEFAULT_BODY_LIMIT_BYTES),
      ),
    ),
    bodyMemoryBytes: Math.floor(
      positiveNumber(
        "--body-memory",
        values["body-memory"] ?? env.BERTH_BODY_MEMORY ?? String(DEFAULT_BODY_MEMORY_BYTES),
      ),
    ),
    maxInFlight: count(
      "--max-in-flight",
      values["max-in-flight"] ?? env.BERTH_MAX_IN_FLIGHT,
      DEFAULT_MAX_IN_FLIGHT,
    ),
    logLevel,
    logFile: ((value) => (value === undefined || value === "" ? undefined : value))(
      values["log-file"] ?? env.BERTH_LOG_FILE,
    ),
    tickSeconds: positiveNumber("--tick", values.tick ?? env.BERTH_TICK ?? "5"),
    scriptletWorkers: workerCount(
      values["scriptlet-workers"] ?? env.BERTH_SCRIPTLET_WORKERS ?? String(DEFAULT_SCRIPTLET_WORKERS),
    ),
    scriptletHeapMb: ((value) =>
      value === undefined || value === ""
        ? undefined
        : Math.floor(positiveNumber("--scriptlet-heap-mb", value)))(
      values["scriptlet-heap-mb"] ?? env.BERTH_SCRIPTLET_HEAP_MB,
    ),
    demo: values.demo === true,
    placementNoauth: values["placement-noauth"] === true || env.BERTH_PLACEMENT_NOAUTH === "1",
    // Servers sharing a PostgreSQL database each draw their own; one SQLite process keeps LXD's join order.
    tieSeed: parseTieSeed(
      values["tie-seed"] ?? env.BERTH_TIE_SEED ?? (isPostgresUrl(db) ? "random" : "join"),
    ),
  };
  if (options.placementNoauth && options.listen !== undefined && !isLoopback(options.listen.host)) {
    throw new UsageError(
      `--placement-noauth needs a loopback listener (127.0.0.1, ::1, localhost) or the socket alone, not "${options.listen.host}"`,
    );
  }
  if (options.listen === undefined && options.socket === undefined) {
    throw new UsageError("Nothing to listen on: --listen and --socket are both disabled");
  }
  return options;
}

/** `/var/lib/berth` as root (LXD keeps server.crt in /var/lib/lxd), else the user's XDG state directory. */
export function defaultStateDir(env: Env = process.env): string {
  if (process.getuid?.() === 0) return "/var/lib/berth";
  const stateHome = env.XDG_STATE_HOME;
  if (stateHome !== undefined && stateHome !== "") return join(stateHome, "berth");
  return join(env.HOME ?? homedir(), ".local", "state", "berth");
}

function stateDirOf(value: string): string | undefined {
  return value === "none" || value === "" ? undefined : value;
}

/** Hosts only this machine can reach: where a token-less admin convention is tolerable. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
