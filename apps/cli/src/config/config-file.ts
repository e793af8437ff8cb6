import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CliError, ExitCode } from "../exit-codes.js";
import { parseYaml, toYaml } from "../output/yaml.js";

/** One server the CLI knows by name, like an `lxc remote`. */
export interface RemoteEntry {
  /** `unix://` (the default socket), `unix:///path/to.sock`, or `http(s)://host:port`. */
  addr: string;
  /** Bearer token for TCP remotes. */
  token?: string;
  /** Project used when `--project` is not given. */
  project?: string;
  /** PEM file of the CA (or the self-signed certificate) of an https remote. */
  ca?: string;
}

export interface CliConfig {
  defaultRemote: string;
  remotes: Record<string, RemoteEntry>;
}

export const LOCAL_REMOTE = "local";

type Env = Record<string, string | undefined>;

/** `$BERTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/berth`, else `~/.config/berth`. */
export function configDir(env: Env = process.env): string {
  if (env.BERTH_CONFIG_DIR) return env.BERTH_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), ".config");
  return join(base, "berth");
}

export function configPath(env: Env = process.env): string {
  return join(configDir(env), "config.yml");
}

export function defaultConfig(): CliConfig {
  return { defaultRemote: LOCAL_REMOTE, remotes: { [LOCAL_REMOTE]: { addr: "unix://" } } };
}

function invalid(path: string, problem: string): CliError {
  return new CliError(`Invalid config file ${path}: ${problem}`, ExitCode.usage);
}

/** Reads and checks the file; a missing file is the default config (only the local socket). */
export function loadConfig(env: Env = process.env): CliConfig {
  const path = configPath(env);
  if (!existsSync(path)) return defaultConfig();
  let data: unknown;
  try {
    data = parseYaml(readFileSync(path, "utf8"));
  } catch (error) {
    throw invalid(path, (error as Error).message);
  }
  return parseConfig(data ?? {}, path);
}

export function parseConfig(data: unknown, path: string): CliConfig {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw invalid(path, "expected a mapping");
  const record = data as Record<string, unknown>;
  const config = defaultConfig();
  for (const key of Object.keys(record)) {
    if (key !== "default-remote" && key !== "remotes") throw invalid(path, `unknown key "${key}"`);
  }
  const remotes = record.remotes ?? {};
  if (typeof remotes !== "object" || remotes === null || Array.isArray(remotes)) {
    throw invalid(path, '"remotes" must be a mapping of name to {addr, token, project}');
  }
  for (const [name, value] of Object.entries(remotes)) {
    config.remotes[name] = parseRemote(name, value, path);
  }
  const defaultRemote = record["default-remote"] ?? LOCAL_REMOTE;
  if (typeof defaultRemote !== "string") throw invalid(path, '"default-remote" must be a string');
  if (!config.remotes[defaultRemote])
    throw invalid(path, `default-remote "${defaultRemote}" is not in remotes`);
  config.defaultRemote = defaultRemote;
  return config;
}

function parseRemote(name: string, value: unknown, path: string): RemoteEntry {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(path, `remote "${name}" must be a mapping with "addr"`);
  }
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (key !== "addr" && key !== "token" && key !== "project" && key !== "ca") {
      throw invalid(path, `remote "${name}" has unknown key "${key}"`);
    }
  }
  if (typeof entry.addr !== "string") throw invalid(path, `remote "${name}" needs a string "addr"`);
  const problem = addressProblem(entry.addr);
  if (problem) throw invalid(path, `remote "${name}": ${problem}`);
  const remote: RemoteEntry = { addr: entry.addr };
  for (const key of ["token", "project", "ca"] as const) {
    const field = entry[key];
    if (field === undefined) continue;
    if (typeof field !== "string") throw invalid(path, `remote "${name}": "${key}" must be a string`);
    remote[key] = field;
  }
  return remote;
}

/** Why an address is unusable, or undefined when it is fine. */
export function addressProblem(addr: string): string | undefined {
  if (addr === "unix://" || addr.startsWith("unix:///")) return undefined;
  let url: URL;
  try {
    url = new URL(addr);
  } catch {
    return `"${addr}" is not a URL: use https://HOST:PORT, http://HOST:PORT or unix:///PATH`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `unsupported scheme "${url.protocol}" in "${addr}": use https, http or unix`;
  }
  if (url.pathname !== "/" && url.pathname !== "") return `"${addr}" must not have a path`;
  return undefined;
}

/** Writes the file atomically, readable by its owner only (it holds tokens). */
export function saveConfig(config: CliConfig, env: Env = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const document = { "default-remote": config.defaultRemote, remotes: config.remotes };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, toYaml(document), { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return path;
}
