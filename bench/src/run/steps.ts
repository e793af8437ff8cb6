/**
 * The steps of `pnpm bench`, each a command run in its own process (so one's
 * heap does not disturb the next) against one checkout: this one, or the
 * baseline's worktree with this checkout's bench code laid over it
 * (baseline-build.ts). Every path is taken from that checkout's root, so the
 * same step measures whichever build it is pointed at.
 */
import { join } from "node:path";

export interface StepOptions {
  quick: boolean;
  /** Extra flags some benches take (`--no-reference`, `--no-hail-200`), passed through. */
  argv: readonly string[];
}

export interface Step {
  name: string;
  /** Result file the step writes into its checkout's bench/results (removed first, so a failed run never leaves a stale figure). */
  result: string;
  /** The command and its working directory, for the checkout at `root`. */
  command(root: string): { argv: string[]; cwd: string };
}

/** pnpm as this process was started with (`npm_execpath`), else the pinned version through npx. */
export function pnpm(args: string[]): string[] {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes("pnpm")) return [process.execPath, execPath, ...args];
  return ["npx", "--yes", "pnpm@10.34.8", ...args];
}

export function defineSteps({ quick, argv }: StepOptions): Step[] {
  const passed = (accept: (arg: string) => boolean) => argv.filter(accept);
  /** A bench of this package: dist/benches/FILE of the checkout, run from its bench/dist. */
  const own = (
    name: string,
    result: string,
    file: string,
    options: { heapMiB?: number; flags?: string[] } = {},
  ) => ({
    name,
    result,
    command: (root: string) => ({
      argv: [
        process.execPath,
        ...(options.heapMiB === undefined ? [] : [`--max-old-space-size=${options.heapMiB}`]),
        join(root, "bench", "dist", "benches", file),
        ...(quick ? ["--quick"] : []),
        ...(options.flags ?? []),
      ],
      cwd: join(root, "bench", "dist"),
    }),
  });
  /** A package's own `bench` script, run by pnpm in the checkout's workspace. */
  const pkg = (name: string, result: string, filter: string, args: string[] = []) => ({
    name,
    result,
    command: (root: string) => ({ argv: pnpm(["--filter", filter, "run", "bench", ...args]), cwd: root }),
  });
  return [
    pkg("starlark", "starlark.json", "@berth/starlark"),
    pkg(
      "adapter-hydration",
      "adapter-sqlite-hydration.json",
      "@berth/adapter-sqlite",
      quick ? ["10000", "100000", "3"] : [],
    ),
    own("placement", "placement.json", "placement.js", { heapMiB: 8192 }),
    own("http", "http.json", "http.js"),
    own("capacity", "capacity.json", "capacity.js"),
    own("placement-api", "placement-api.json", "placement-api.js", {
      flags: passed((a) => a === "--no-reference"),
    }),
    own("postgres", "postgres.json", "postgres.js"),
    own("scriptlet-storm", "scriptlet-storm.json", "scriptlet-storm.js"),
    own("server-footprint", "server-footprint.json", "server-footprint.js"),
    own("console-render", "console-render.json", "console-render.js"),
    own("iallocator", "iallocator.json", "iallocator.js", { flags: passed((a) => a === "--no-hail-200") }),
    own("soak", "soak.json", "soak.js"),
  ];
}
