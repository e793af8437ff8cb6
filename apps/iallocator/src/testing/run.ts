/** Running the real `berth-iallocator` binary (and Debian's hail, where installed) on an input. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The built binary (tests depend on the build, as turbo runs it first). */
export const BIN = resolve(here, "../../dist/main.js");
export const HAIL = "/usr/lib/ganeti/iallocators/hail";
export const hailInstalled = existsSync(HAIL);
/**
 * Ganeti's own inputs, read in place from `shared/ganeti-iallocator` beside
 * the checkout: the nearest such folder above this one, so a git worktree
 * nested deeper (`/work/wt/BRANCH`) finds the same inputs as `/work/main`.
 * When none exists, the path beside the checkout (tests then skip, naming it).
 */
export const SHARED_INPUTS = sharedInputs(resolve(here, "../../../.."));

function sharedInputs(checkout: string): string {
  const inputsBeside = (dir: string) => join(dirname(dir), "shared/ganeti-iallocator");
  for (let dir = checkout; dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(inputsBeside(dir))) return inputsBeside(dir);
  return inputsBeside(checkout);
}

export interface Answer {
  success: boolean;
  info: string;
  // biome-ignore lint/suspicious/noExplicitAny: the result's shape depends on the request type
  result: any;
}

/**
 * Writes an allocator input to a temp file (the binary reads a path, as
 * Ganeti calls it), hands its path to `use`, and removes it afterwards.
 */
export function withInputFile<T>(input: unknown, use: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "berth-iallocator-"));
  try {
    const path = join(dir, "input.json");
    writeFileSync(path, typeof input === "string" ? input : JSON.stringify(input));
    return use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(
  command: string,
  args: string[],
  stdin?: string,
): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(command, args, { encoding: "utf8", input: stdin, maxBuffer: 64 * 1024 * 1024 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

export function runBerth(path: string): Answer {
  const out = run(process.execPath, [BIN, path]);
  if (out.status !== 0) throw new Error(`berth-iallocator exited ${out.status}: ${out.stderr}`);
  return JSON.parse(out.stdout) as Answer;
}

export function runBinary(args: string[], stdin?: string) {
  return run(process.execPath, [BIN, ...args], stdin);
}

export function runHail(path: string): Answer {
  const out = run(HAIL, [path]);
  if (out.status !== 0) throw new Error(`hail exited ${out.status}: ${out.stderr}`);
  return JSON.parse(out.stdout) as Answer;
}
