/**
 * The baseline of `pnpm bench --baseline=REF`: REF checked out in a temporary
 * git worktree, installed from the pnpm store and its packages built, then
 * THIS checkout's bench code laid over it (bench/dist and the packages' own
 * bench/ folders), so the same bench code measures REF's engine, adapters,
 * server and iallocator: the figures compare builds, not benches. Node
 * resolves `@berth/*` from where the bench file sits, i.e. to REF's packages
 * and their `dist`. REF's own bench code stays in the worktree beside ours
 * (bench-code.ts): a step our code cannot run against REF's packages runs
 * with REF's own instead (`useBenchCode`).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { log } from "../measure/timing.js";
import type { BenchCode } from "./bench-code.js";
import { pnpm } from "./steps.js";

export interface BaselineBuild {
  /** The commit-ish as given. */
  ref: string;
  /** What it resolved to. */
  commit: string;
  /** The worktree's root, where the steps run for the baseline. */
  root: string;
  /** Whether REF has bench code of its own to fall back to (its bench built, or a package's bench folder). */
  hasOwnBenchCode: boolean;
  /** Puts this checkout's bench code or REF's own in place in the worktree (a no-op when already there). */
  useBenchCode(code: BenchCode): void;
  /** Removes the worktree and its temp directory (idempotent). */
  remove(): void;
}

/** Bench code of this checkout that replaces REF's: compiled benches, and the packages' own bench scripts. */
const OVERLAID = ["bench/dist", "packages/adapter-sqlite/bench", "packages/starlark/bench"];

/** Where the bench code not in use waits: REF's own while ours is in place, and the other way round. */
const parked = (path: string) => `${path}.parked-bench-code`;

/** Exchanges two paths, either of which may be absent. */
function swap(path: string, other: string): void {
  const moving = `${path}.swapping`;
  const had = existsSync(path);
  if (had) renameSync(path, moving);
  if (existsSync(other)) renameSync(other, path);
  if (had) renameSync(moving, other);
}

/** Builds REF's own bench; false (logged) when it does not build, and then there is nothing to fall back to. */
function buildOwnBench(root: string): boolean {
  const [command, ...args] = pnpm([
    "exec",
    "turbo",
    "run",
    "build",
    "--filter=@berth/bench",
    "--output-logs=errors-only",
  ]);
  const outcome = spawnSync(command!, args, { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (outcome.status !== 0) log("baseline: its own bench does not build; no fallback to its bench code");
  return outcome.status === 0;
}

function run(argv: string[], cwd: string): string {
  const [command, ...args] = argv;
  const outcome = spawnSync(command!, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 << 20,
  });
  if (outcome.status !== 0)
    throw new Error(`${argv.join(" ")} (in ${cwd}) failed with ${outcome.status ?? outcome.signal}`);
  return outcome.stdout;
}

/** Resolves `ref` to a commit of the repository at `repoRoot`; throws a clear error for an unknown one. */
export function resolveCommit(repoRoot: string, ref: string): string {
  const outcome = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (outcome.status !== 0) throw new Error(`--baseline=${ref}: not a commit in ${repoRoot}`);
  return outcome.stdout.trim();
}

/**
 * The `shared/` folder beside the repository (Starlark workloads, the
 * Placement kit), looked for beside this checkout and, for a checkout that
 * is itself a linked worktree, beside the main one; undefined when absent.
 */
function sharedFolder(repoRoot: string): string | undefined {
  const common = spawnSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], {
    cwd: repoRoot,
    encoding: "utf8",
  }).stdout.trim();
  const candidates = [resolve(repoRoot, "..", "shared")];
  if (common !== "") candidates.push(resolve(common, "..", "..", "shared"));
  return candidates.find((path) => existsSync(path));
}

/**
 * Checks REF out beside a link to the shared folder (benches find
 * `../shared` from the repository root), installs it offline, builds the
 * packages the bench depends on, and lays this checkout's bench code over it.
 * On any failure the worktree is removed before the error propagates.
 */
export function prepareBaseline(repoRoot: string, ref: string): BaselineBuild {
  const commit = resolveCommit(repoRoot, ref);
  const dir = mkdtempSync(join(tmpdir(), "berth-baseline-"));
  const root = join(dir, "berth");
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    spawnSync("git", ["worktree", "remove", "--force", root], { cwd: repoRoot, stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
    spawnSync("git", ["worktree", "prune"], { cwd: repoRoot, stdio: "ignore" });
  };
  try {
    const shared = sharedFolder(repoRoot);
    if (shared !== undefined) symlinkSync(shared, join(dir, "shared"));
    log(`baseline ${ref} (${commit.slice(0, 12)}): worktree in ${root}`);
    run(["git", "worktree", "add", "--quiet", "--detach", root, commit], repoRoot);
    log("baseline: pnpm install --frozen-lockfile --offline");
    run(pnpm(["install", "--frozen-lockfile", "--offline"]), root);
    log("baseline: building the packages the bench needs");
    run(
      pnpm(["exec", "turbo", "run", "build", "--filter=@berth/bench^...", "--output-logs=errors-only"]),
      root,
    );
    log("baseline: building its own bench code too (the fallback for steps ours cannot run there)");
    if (!buildOwnBench(root)) rmSync(join(root, "bench", "dist"), { recursive: true, force: true });
    // REF's own bench code is parked beside the path, ours takes its place.
    for (const path of OVERLAID) {
      const theirs = join(root, path);
      if (existsSync(theirs)) renameSync(theirs, parked(theirs));
      if (existsSync(join(repoRoot, path))) cpSync(join(repoRoot, path), theirs, { recursive: true });
    }
    const hasOwnBenchCode = OVERLAID.some((path) => existsSync(parked(join(root, path))));
    let inUse: BenchCode = "this checkout";
    const useBenchCode = (code: BenchCode) => {
      if (code === inUse) return;
      for (const path of OVERLAID) swap(join(root, path), parked(join(root, path)));
      inUse = code;
    };
    return { ref, commit, root, hasOwnBenchCode, useBenchCode, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
