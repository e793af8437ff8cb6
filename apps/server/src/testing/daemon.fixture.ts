/** The real berthd entry point as a child process, for tests that need the daemon's own wiring. */
import { type ChildProcess, spawn } from "node:child_process";

/**
 * The berthd the package ships, exactly what `pnpm start` and the `berthd` bin run: the bundle
 * `pnpm build` writes (scripts/bundle.mjs; turbo builds the package before its tests).
 */
export const MAIN = new URL("../../dist/berthd/berthd.js", import.meta.url).pathname;

export interface RunningDaemon {
  child: ChildProcess;
  /** Plain HTTP on the TCP listener. */
  url: string;
  /** The same port over HTTPS, when berthd has a certificate. */
  httpsUrl: string | undefined;
  stdout: () => string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/**
 * Starts berthd with `args`; resolves once its "listening" log line names the
 * TCP URL and it has printed the console's line (with `--log-file`, the log is
 * elsewhere: the console's line gives the URL). `command` runs another
 * launcher, such as the repository's `berthd` wrapper, instead of the entry point.
 */
export function startDaemon(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  { cwd, command }: { cwd?: string; command?: string } = {},
): Promise<RunningDaemon> {
  const [file, ...launch] = command === undefined ? [process.execPath, MAIN] : [command];
  const child = spawn(file ?? process.execPath, [...launch, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const loggedElsewhere = args.includes("--log-file");
  let out = "";
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // A daemon that never said it was listening must not outlive the test.
      child.kill("SIGKILL");
      reject(new Error(`berthd did not start: ${out}\n${err}`));
    }, 40_000);
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const match = loggedElsewhere
        ? /Web console: (http\S+)\/ui\//.exec(out)
        : /"url":"(http[^"]+)".*"msg":"berthd listening"/.exec(out);
      if (match?.[1] && out.includes("Web console:")) {
        clearTimeout(timer);
        const https = /"https_url":"(https[^"]+)"/.exec(out)?.[1];
        resolve({
          child,
          url: match[1],
          httpsUrl: https,
          stdout: () => out,
          stop: async () => {
            const exited = exitOf(child);
            child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`berthd exited early (${code}): ${out}\n${err}`));
    });
  });
}
