import { readFileSync } from "node:fs";
import type { NodeClientOptions } from "@berth/client/node";
import { usageError } from "../exit-codes.js";
import { addressProblem, type CliConfig, type RemoteEntry } from "./config-file.js";

type Env = Record<string, string | undefined>;

/** The PEM text of a CA file, read when a connection is made (a missing file is a usage error naming it). */
function readCa(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw usageError(`Cannot read the CA file ${path}: ${(error as NodeJS.ErrnoException).message}`);
  }
}

export interface ConnectionFlags {
  remote?: string;
  token?: string;
  socket?: string;
  project?: string;
  ca?: string;
}

/** Where to send requests, and how that was chosen (shown by `berth remote list`, used in errors). */
export interface Connection {
  options: NodeClientOptions;
  /** Remote name, or the URL/socket given on the command line. */
  label: string;
}

function fromEntry(label: string, entry: RemoteEntry, flags: ConnectionFlags, env: Env): Connection {
  const options: NodeClientOptions = {};
  if (entry.addr.startsWith("unix://")) {
    const path = entry.addr.slice("unix://".length);
    // "unix://" alone: the socket berthd uses by default (BERTH_SOCKET, XDG_RUNTIME_DIR, ~/.berth, /run/berth).
    if (path !== "") options.socketPath = path;
  } else {
    options.url = entry.addr;
  }
  const token = flags.token ?? env.BERTH_TOKEN ?? entry.token;
  if (token !== undefined && token !== "") options.token = token;
  const project = flags.project ?? env.BERTH_PROJECT ?? entry.project;
  if (project !== undefined && project !== "") options.project = project;
  const ca = flags.ca ?? entry.ca;
  if (ca !== undefined && ca !== "") options.ca = readCa(ca);
  return { options, label };
}

/**
 * Picks the server, first match wins:
 * 1. `--remote URL|NAME` (a URL is used as is, a name comes from the config file);
 * 2. `--socket PATH`;
 * 3. `$BERTH_SOCKET`;
 * 4. the config file's default remote (by default "local": berthd's default socket).
 * The token comes from `--token`, then `$BERTH_TOKEN`, then the remote's entry.
 */
export function resolveConnection(
  flags: ConnectionFlags,
  config: CliConfig,
  env: Env = process.env,
): Connection {
  if (flags.remote !== undefined) {
    if (flags.remote.includes("://")) {
      const problem = addressProblem(flags.remote);
      if (problem) throw usageError(`Invalid --remote: ${problem}`);
      return fromEntry(flags.remote, { addr: flags.remote }, flags, env);
    }
    const entry = config.remotes[flags.remote];
    if (!entry) {
      const known = Object.keys(config.remotes).sort().join(", ");
      throw usageError(
        `Remote "${flags.remote}" not found (known remotes: ${known}); add it with "berth remote add"`,
      );
    }
    return fromEntry(flags.remote, entry, flags, env);
  }
  if (flags.socket !== undefined)
    return fromEntry(`unix:${flags.socket}`, { addr: `unix://${flags.socket}` }, flags, env);
  if (env.BERTH_SOCKET)
    return fromEntry(`unix:${env.BERTH_SOCKET}`, { addr: `unix://${env.BERTH_SOCKET}` }, flags, env);
  const name = config.defaultRemote;
  const entry = config.remotes[name] ?? { addr: "unix://" };
  return fromEntry(name, entry, flags, env);
}
