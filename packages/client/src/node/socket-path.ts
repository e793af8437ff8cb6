import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Socket of a berthd run as root (a system service). */
export const SYSTEM_SOCKET_PATH = "/run/berth/berth.sock";

type Env = Record<string, string | undefined>;

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * Where berthd listens when not told otherwise, and the CLI's first guess:
 * 1. `$BERTH_SOCKET`;
 * 2. `/run/berth/berth.sock` when running as root;
 * 3. `$XDG_RUNTIME_DIR/berth/berth.sock`;
 * 4. `~/.berth/berth.sock`.
 */
export function defaultSocketPath(env: Env = process.env): string {
  const explicit = env.BERTH_SOCKET;
  if (explicit !== undefined && explicit !== "") return explicit;
  if (isRoot()) return SYSTEM_SOCKET_PATH;
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir !== undefined && runtimeDir !== "") return join(runtimeDir, "berth", "berth.sock");
  return join(env.HOME ?? homedir(), ".berth", "berth.sock");
}

/**
 * The socket a client should talk to: the default path, or, when nothing
 * listens there, the system socket (a non-root user in the socket's group
 * talking to a berthd run as root).
 */
export function resolveClientSocketPath(env: Env = process.env): string {
  const preferred = defaultSocketPath(env);
  if (env.BERTH_SOCKET || existsSync(preferred) || !existsSync(SYSTEM_SOCKET_PATH)) return preferred;
  return SYSTEM_SOCKET_PATH;
}
