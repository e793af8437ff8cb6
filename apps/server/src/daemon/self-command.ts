import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";

/**
 * The commands that run berthd and the berth CLI again, written for the
 * terminal berthd was started in, so the hints it prints work when pasted
 * there. The repository's `./berthd` wrapper says how it was started
 * (`BERTHD_COMMAND`, its `$0`; `BERTH_COMMAND`, the `berth` beside it);
 * otherwise berthd names its own entry point with `node`, relative to the
 * folder it runs in when that is shorter.
 */
export interface SelfCommands {
  berthd: string;
  berth: string;
}

type Env = Record<string, string | undefined>;

export function selfCommands(
  env: Env = process.env,
  entryPoint: string = process.argv[1] ?? "berthd",
  cwd: string = process.cwd(),
): SelfCommands {
  const berthdWrapper = nonEmpty(env.BERTHD_COMMAND);
  const berthWrapper = nonEmpty(env.BERTH_COMMAND);
  return {
    berthd:
      berthdWrapper !== undefined
        ? shellWord(berthdWrapper)
        : `node ${shellWord(shortPath(entryPoint, cwd))}`,
    berth: berthWrapper !== undefined ? shellWord(berthWrapper) : cliBeside(entryPoint, cwd),
  };
}

/** In a checkout the CLI's entry point sits beside the server's: apps/cli/dist/main.js. */
function cliBeside(entryPoint: string, cwd: string): string {
  const cli = join(dirname(entryPoint), "..", "..", "cli", "dist", "main.js");
  return existsSync(cli) ? `node ${shellWord(shortPath(cli, cwd))}` : "berth";
}

function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Single-quoted for a POSIX shell when it holds anything but safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
