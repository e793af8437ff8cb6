/** Runs the real LXD client (`/usr/bin/lxc`, Debian's lxd-client) for the lxc test suites. */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { describe } from "vitest";

export const LXC = "/usr/bin/lxc";

export interface LxcRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `describe`, or a skip with a message naming the missing binary. */
export function describeWithLxc(suite: string): typeof describe {
  if (existsSync(LXC)) return describe;
  console.warn(`${suite} skipped: ${LXC} is missing (Debian package lxd-client, scripts/test-deps.sh)`);
  return describe.skip as typeof describe;
}

/**
 * One `lxc` command: `lxdDir` holds the local server's `unix.socket`,
 * `confDir` is the client's own config (LXD_CONF: its remotes and client
 * certificate; each directory is a separate client).
 */
export function runLxc(
  dirs: { lxdDir: string; confDir: string },
  args: string[],
  input?: string,
): Promise<LxcRun> {
  return new Promise((resolve) => {
    const child = execFile(
      LXC,
      args,
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: dirs.confDir,
          LXD_DIR: dirs.lxdDir,
          LXD_CONF: dirs.confDir,
        },
        timeout: 20_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    // lxc init/launch and edits read stdin when it is not a terminal: always give it an end.
    child.stdin?.end(input ?? "");
  });
}
