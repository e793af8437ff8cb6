/**
 * The baseline of `pnpm bench --baseline=REF`: REF checked out in a temporary
 * git worktree, installed from the pnpm store and its packages built, then
 * THIS checkout's bench code laid over it (bench/dist and the packages' own
 * bench/ folders), so the same bench code measures REF's engine, adapters,
 * server and iallocator: the figures compare builds, not benches. Node
 * resolves `@berth/*` from where the bench file sits, i.e. to REF's packages
 * and their `dist`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { log } from "../measure/timing.js";
import { pnpm } from "./steps.js";

export interface BaselineBuild {
  /** The commit-ish as given. */
  ref: string;
  /** What it resolved to. */
  commit: string;
  /** The worktree's root, where the steps run for the baseline. */
  root: string;
  /** Removes the worktree and its temp directory (idempotent). */
  remove(): void;
}

/** Bench code of this checkout that replaces REF's: compiled benches, and the packages' own bench scripts. */
const OVERLAID = ["bench/dist", "packages/adapter-sqlite/bench", "packages/starlark/bench"];

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
    for (const path of OVERLAID) {
      if (!existsSync(join(repoRoot, path))) continue;
      rmSync(join(root, path), { recursive: true, force: true });
      cpSync(join(repoRoot, path), join(root, path), { recursive: true });
    }
    return { ref, commit, root, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
