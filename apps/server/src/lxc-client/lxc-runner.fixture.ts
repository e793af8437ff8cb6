/** Runs the real LXD client (`/usr/bin/lxc`, Debian's lxd-client) for the lxc test suites. */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

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
    // A command that exits without reading it (a refusal) closes the pipe first: that EPIPE is
    // the child's business, told by its exit code and stderr, not an error of the test run.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(input ?? "");
  });
}

/** A client of one berthd: `lxc` runs a command, `ok` one that must succeed (its stdout). */
export interface LxcClient {
  /** LXD_DIR: holds berthd's socket as `unix.socket`, and the client's config under `conf`. */
  lxdDir: string;
  lxc(args: string[], input?: string): Promise<LxcRun>;
  ok(args: string[], input?: string): Promise<string>;
}

/** The lxc client of the berthd listening on `server.socketPath` (its own config under `server.dir`). */
export function lxcClientOf(server: { dir: string; socketPath: string }): LxcClient {
  const lxdDir = join(server.dir, "lxd");
  mkdirSync(join(lxdDir, "conf"), { recursive: true });
  symlinkSync(server.socketPath, join(lxdDir, "unix.socket"));
  const lxc = (args: string[], input?: string) =>
    runLxc({ lxdDir, confDir: join(lxdDir, "conf") }, args, input);
  return {
    lxdDir,
    lxc,
    async ok(args, input) {
      const run = await lxc(args, input);
      if (run.code !== 0) throw new Error(`lxc ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
      return run.stdout;
    },
  };
}

/** What an lxc suite's berthd starts with (`seedLxcCluster`). */
export interface LxcSeed {
  /** Members with explicit VCPU/MEMORY_MB/DISK_GB inventories (`addMembers`), each online (one heartbeat). */
  members?: Parameters<typeof addMembers>[1];
  /** Images an `lxc init ALIAS` resolves. */
  images?: { alias: string; fingerprint: string; type?: "container" | "virtual-machine" }[];
  projects?: string[];
}

/** Registers the seed's members, images and projects through berthd's Unix socket. */
export async function seedLxcCluster(server: TestServer, seed: LxcSeed): Promise<void> {
  const local = server.local();
  const members = seed.members ?? [];
  await addMembers(local, members);
  for (const { name } of members) await server.engine.members.heartbeat(name);
  for (const image of seed.images ?? []) {
    await local.images.create({
      fingerprint: image.fingerprint,
      architecture: "x86_64",
      ...(image.type !== undefined ? { type: image.type } : {}),
      aliases: [{ name: image.alias, description: "" }],
    });
  }
  for (const name of seed.projects ?? []) await local.projects.create({ name, description: "", config: {} });
}

/** A fresh berthd seeded with `seed`, and the lxc client of its Unix socket. */
export async function startLxcCluster(
  seed: LxcSeed = {},
): Promise<{ server: TestServer; client: LxcClient }> {
  const server = await startTestServer();
  const client = lxcClientOf(server);
  await seedLxcCluster(server, seed);
  return { server, client };
}
