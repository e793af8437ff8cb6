import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { defaultSocketPath } from "@berth/client/node";
import { DEFAULT_BODY_LIMIT_BYTES } from "../app.js";

export const DEFAULT_DB = "berth.db";
export const DEFAULT_LISTEN = "127.0.0.1:8443";

export interface DaemonOptions {
  db: string;
  /** undefined: no TCP listener. */
  listen: { host: string; port: number } | undefined;
  /** undefined: no Unix socket. */
  socket: string | undefined;
  tls: { cert: Buffer; key: Buffer } | undefined;
  bodyLimitBytes: number;
  logLevel: string;
  /** How often the offline/healing task runs. */
  tickSeconds: number;
  demo: boolean;
  /** Placement's noauth2 convention on /placement; only with loopback listeners. */
  placementNoauth: boolean;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage: berthd [options]
       berthd token create NAME (--admin | --project P [--project P...]) [--db PATH]
       berthd token list [--db PATH]
       berthd token revoke NAME [--db PATH]

Options (environment variable in brackets):
  --db PATH            database file, or :memory: [BERTH_DB] (default ${DEFAULT_DB})
  --listen HOST:PORT   TCP listener, "none" to disable [BERTH_LISTEN] (default ${DEFAULT_LISTEN})
  --socket PATH        Unix socket, "none" to disable [BERTH_SOCKET] (default ${defaultSocketPath()})
  --tls-cert FILE      PEM certificate: serve HTTPS on the TCP listener [BERTH_TLS_CERT]
  --tls-key FILE       PEM private key for --tls-cert [BERTH_TLS_KEY]
  --body-limit BYTES   largest accepted request body [BERTH_BODY_LIMIT] (default ${DEFAULT_BODY_LIMIT_BYTES})
  --log-level LEVEL    trace|debug|info|warn|error [BERTH_LOG_LEVEL] (default info)
  --tick SECONDS       period of the offline/healing check [BERTH_TICK] (default 5)
  --demo               load a small sample cluster if the database is empty
  --placement-noauth   /placement accepts Placement's noauth2 tokens ("admin" is an admin);
                       refused unless the TCP listener is loopback [BERTH_PLACEMENT_NOAUTH=1]
  -h, --help           show this help
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
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "body-limit": { type: "string" },
      "log-level": { type: "string" },
      tick: { type: "string" },
      demo: { type: "boolean" },
      "placement-noauth": { type: "boolean" },
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
  const logLevel = values["log-level"] ?? env.BERTH_LOG_LEVEL ?? "info";
  if (!LOG_LEVELS.has(logLevel)) throw new UsageError(`Invalid --log-level "${logLevel}"`);
  const options: DaemonOptions = {
    db: values.db ?? env.BERTH_DB ?? DEFAULT_DB,
    listen: parseListen(values.listen ?? env.BERTH_LISTEN ?? DEFAULT_LISTEN),
    socket: socketValue === "none" || socketValue === "" ? undefined : socketValue,
    tls:
      certPath !== undefined && keyPath !== undefined
        ? { cert: readFileSync(certPath), key: readFileSync(keyPath) }
        : undefined,
    bodyLimitBytes: Math.floor(
      positiveNumber(
        "--body-limit",
        values["body-limit"] ?? env.BERTH_BODY_LIMIT ?? String(DEFAULT_BODY_LIMIT_BYTES),
      ),
    ),
    logLevel,
    tickSeconds: positiveNumber("--tick", values.tick ?? env.BERTH_TICK ?? "5"),
    demo: values.demo === true,
    placementNoauth: values["placement-noauth"] === true || env.BERTH_PLACEMENT_NOAUTH === "1",
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

/** Hosts only this machine can reach: where a token-less admin convention is tolerable. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
