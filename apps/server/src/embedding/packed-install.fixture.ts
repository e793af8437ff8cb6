/**
 * The packages as a third party gets them: `pnpm pack` of each (workspace
 * versions become real ones) and an install of the tarballs into a fresh
 * folder outside the repository. The install is offline: the @berth
 * tarballs are installed from their files, and their other dependencies
 * (zod, drizzle-orm, libSQL, pg, hono, pino, prom-client) are linked to the
 * copies this workspace already installed (the versions pnpm-lock.yaml
 * pins), so the test needs no network and takes seconds. The README tells
 * users the registry way (`npm install` of the tarballs).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const WORKSPACE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The packages meant for use outside this repository, by their folder in the workspace. */
const EMBEDDABLE = [
  "packages/api-types",
  "packages/starlark",
  "packages/resources",
  "packages/engine",
  // What both SQL Stores share (a dependency of both adapters).
  "packages/sql-core",
  "packages/adapter-sqlite",
  "packages/adapter-postgres",
  "packages/client",
  // The console's built files, which berthd serves at /ui/ (a dependency of @berth/server).
  "apps/web",
  "apps/server",
];

const PNPM = ["--yes", "pnpm@10.34.8"];

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

export interface SnippetRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface PackedInstall {
  /** The folder the tarballs were installed into (outside the repository). */
  toolDir: string;
  /** Runs `code` as an ES module in a folder of its own under `toolDir` (its node_modules resolve). */
  run(name: string, code: string, env?: Record<string, string>): Promise<SnippetRun>;
  close(): void;
}

export async function installPackedPackages(): Promise<PackedInstall> {
  const root = mkdtempSync(join(tmpdir(), "berth-embedding-"));
  const tarballs = join(root, "tarballs");
  const filters = EMBEDDABLE.flatMap((dir) => ["--filter", `./${dir}`]);
  await run("npx", [...PNPM, "-r", ...filters, "pack", "--pack-destination", tarballs], {
    cwd: WORKSPACE_ROOT,
    timeout: 120_000,
  });

  const berth: Record<string, string> = {};
  const thirdParty: Record<string, string> = {};
  for (const dir of EMBEDDABLE) {
    const manifest = JSON.parse(
      readFileSync(join(WORKSPACE_ROOT, dir, "package.json"), "utf8"),
    ) as PackageJson;
    const file = `${manifest.name.replace("@", "").replace("/", "-")}-${manifest.version}.tgz`;
    berth[manifest.name] = `file:${join(tarballs, file)}`;
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith("@berth/")) continue;
      thirdParty[dependency] = `link:${realpathSync(join(WORKSPACE_ROOT, dir, "node_modules", dependency))}`;
    }
  }
  const toolDir = join(root, "tool");
  mkdirSync(toolDir);
  const manifest = {
    name: "berth-embedding-check",
    private: true,
    type: "module",
    dependencies: berth,
    // Nested @berth dependencies resolve to the tarballs too, and the rest to this workspace's copies.
    pnpm: { overrides: { ...berth, ...thirdParty } },
  };
  writeFileSync(join(toolDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await run("npx", [...PNPM, "install", "--offline", "--ignore-workspace"], {
    cwd: toolDir,
    timeout: 120_000,
  });

  return {
    toolDir,
    async run(name, code, env = {}) {
      const dir = join(toolDir, name);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${name}.mjs`);
      writeFileSync(file, `${code}\n`);
      try {
        const { stdout, stderr } = await run(process.execPath, [file], {
          cwd: dir,
          env: { ...process.env, ...env },
          timeout: 60_000,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
      }
    },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}
