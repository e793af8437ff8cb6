import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs one of this directory's TypeScript scripts in a separate Node process
 * (through tsx, so tests need no build step). Each child opens its own
 * database connection: the point is to race real processes on one file.
 */
export function spawnScript(script: string, args: string[]): ChildProcess {
  const path = fileURLToPath(new URL(script, import.meta.url));
  return spawn(process.execPath, ["--import", "tsx", path, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
  });
}

/** Collects stdout lines and resolves with them (and the exit status) when the child ends. */
export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null; lines: string[]; stderr: string }> {
  const lines: string[] = [];
  let buffer = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    lines.push(...parts);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (buffer !== "") lines.push(buffer);
      resolve({ code, signal, lines, stderr });
    });
  });
}

/** Resolves when the child prints a line equal to `marker`. */
export function lineSeen(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      if (buffer.split("\n").includes(marker)) {
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.on("close", () => reject(new Error(`child exited before printing ${marker}`)));
  });
}

/** Resolves with the first line a child reads on stdin (the parent's "go"). */
export function readStdinLine(): Promise<string> {
  return new Promise((resolve) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const end = buffer.indexOf("\n");
      if (end >= 0) {
        process.stdin.off("data", onData);
        process.stdin.pause();
        resolve(buffer.slice(0, end));
      }
    };
    process.stdin.on("data", onData);
  });
}
