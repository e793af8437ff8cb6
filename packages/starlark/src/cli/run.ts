import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { InitOptions, Module } from "../eval/program.js";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import type { Dialect } from "../resolve/dialect.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import { StarlarkError, Thread, type Value } from "../values/index.js";

export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
}

const USAGE =
  "usage: starlark [-set] [-recursion] [-globalreassign] [-while] [-toplevelcontrol] [-steps N] [-timeout MS] (FILE | -c PROGRAM)\n";

interface CliArgs {
  dialect: Dialect;
  filename: string;
  source: string;
  maxSteps: number;
  timeoutMs: number;
}

function parseArgs(argv: readonly string[], io: CliIO): CliArgs | undefined {
  const dialect: Dialect = {};
  let program: string | undefined;
  let file: string | undefined;
  let maxSteps = Number.POSITIVE_INFINITY;
  let timeoutMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const flag = a.replace(/^--?/, "-");
    switch (flag) {
      case "-set":
        dialect.set = true;
        break;
      case "-recursion":
        // As in go.starlark.net of this vintage: -recursion also permits while loops.
        dialect.recursion = true;
        dialect.while = true;
        break;
      case "-while":
        dialect.while = true;
        break;
      case "-globalreassign":
        // Legacy go.starlark.net: also allows if/for/while at top level.
        dialect.globalReassign = true;
        dialect.topLevelControl = true;
        break;
      case "-toplevelcontrol":
        dialect.topLevelControl = true;
        break;
      case "-steps":
      case "-timeout": {
        const n = Number(argv[++i]);
        if (!Number.isFinite(n) || n <= 0) {
          io.stderr(`starlark: ${flag} needs a positive number\n${USAGE}`);
          return undefined;
        }
        if (flag === "-steps") maxSteps = n;
        else timeoutMs = n;
        break;
      }
      case "-c":
        program = argv[++i];
        if (program === undefined) {
          io.stderr(`starlark: -c needs a program\n${USAGE}`);
          return undefined;
        }
        break;
      default:
        if (a.startsWith("-") && a !== "-") {
          io.stderr(`starlark: unknown flag ${a}\n${USAGE}`);
          return undefined;
        }
        if (file !== undefined) {
          io.stderr(`starlark: only one file may be given\n${USAGE}`);
          return undefined;
        }
        file = a;
    }
  }
  if (program !== undefined && file === undefined) {
    return { dialect, filename: "cmdline", source: program, maxSteps, timeoutMs };
  }
  if (file === undefined || program !== undefined) {
    io.stderr(USAGE);
    return undefined;
  }
  let source: string;
  try {
    source = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    io.stderr(`starlark: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
    return undefined;
  }
  return { dialect, filename: file, source, maxSteps, timeoutMs };
}

/** Output is buffered and flushed in large writes: print-heavy programs would otherwise be write-bound. */
class OutputBuffer {
  private chunks: string[] = [];
  private size = 0;
  constructor(private readonly sink: (s: string) => void) {}
  write(s: string): void {
    this.chunks.push(s);
    this.size += s.length;
    if (this.size > 1 << 16) this.flush();
  }
  flush(): void {
    if (this.chunks.length === 0) return;
    this.sink(this.chunks.join(""));
    this.chunks = [];
    this.size = 0;
  }
}

/** Runs the CLI; returns the exit status. */
export function runCli(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, io);
  if (args === undefined) return 2;
  const out = new OutputBuffer(io.stdout);
  const thread = new Thread({
    name: "main",
    print: (_t, msg) => out.write(`${msg}\n`),
    limits: {
      maxSteps: args.maxSteps,
      deadline: Number.isFinite(args.timeoutMs) ? Date.now() + args.timeoutMs : Number.POSITIVE_INFINITY,
    },
  });
  try {
    const program = compile(args.source, {
      filename: args.filename,
      predeclared: ["json"],
      dialect: args.dialect,
    });
    program.init(thread, { json: jsonModule }, { load: fileLoader(args.filename, args.dialect) });
    out.flush();
    return 0;
  } catch (e) {
    out.flush();
    if (e instanceof StarlarkSyntaxErrors) {
      io.stderr(`${e.errors.map((x) => `${x.filename}:${x.line}:${x.col}: ${x.msg}`).join("\n")}\n`);
      return 1;
    }
    if (e instanceof StarlarkError) {
      io.stderr(`${e.backtrace()}\n`);
      return 1;
    }
    throw e;
  }
}

/** load("x.star", ...) reads x.star relative to the loading file's directory; each file loads once. */
function fileLoader(mainFile: string, dialect: Dialect): NonNullable<InitOptions["load"]> {
  const cache = new Map<string, Module | Error>();
  const base = mainFile === "cmdline" ? process.cwd() : dirname(resolve(mainFile));
  const load: NonNullable<InitOptions["load"]> = (thread, module) => {
    const path = resolve(base, module);
    let entry = cache.get(path);
    if (entry === undefined) {
      try {
        const src = readFileSync(path, "utf8");
        const prog = compile(src, { filename: module, predeclared: ["json"], dialect });
        const child = new Thread({ name: `load ${module}`, print: thread.print, limits: thread.limits });
        entry = prog.init(child, { json: jsonModule }, { load });
      } catch (e) {
        entry = e instanceof Error ? e : new Error(String(e));
      }
      cache.set(path, entry);
    }
    if (entry instanceof Error) throw entry;
    return entry.globals as ReadonlyMap<string, Value>;
  };
  return load;
}
