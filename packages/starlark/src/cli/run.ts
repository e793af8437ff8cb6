import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { InitOptions, Module } from "../eval/program.js";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import { mathModule } from "../math/index.js";
import type { Dialect } from "../resolve/dialect.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import { timeModule } from "../time/index.js";
import { StarlarkError, Thread, type Value } from "../values/index.js";

export interface CliIO {
  /** Program output as a byte string (one byte per code unit): print() writes bytes as they are. */
  stdout(bytes: string): void;
  /** Diagnostics, a normal JS string. */
  stderr(s: string): void;
}

const USAGE =
  "usage: starlark [-recursion] [-globalreassign] [-while] [-toplevelcontrol] [-loadbindsglobally] [-legacy] [-noset] [-steps N] [-timeout MS] [-memory BYTES] (FILE | -c PROGRAM)\n";

/** The modules the command offers every file, as upstream's cmd/starlark adds them to its universe. */
const PREDECLARED: Readonly<Record<string, Value>> = { json: jsonModule, math: mathModule, time: timeModule };

interface CliArgs {
  dialect: Dialect;
  filename: string;
  source: string;
  maxSteps: number;
  timeoutMs: number;
  memoryBytes: number;
}

/** The command-line flags, before they are turned into dialect options. */
interface Flags {
  recursion: boolean;
  globalReassign: boolean;
  while: boolean;
  topLevelControl: boolean;
  loadBindsGlobally: boolean;
  legacy: boolean;
  noSet: boolean;
  set: boolean;
}

/**
 * The dialect of the newest go.starlark.net's cmd/starlark (syntax.LegacyFileOptions): `set`
 * always on, -recursion allows recursion only, -globalreassign also allows `while` and
 * top-level if/for/while. -legacy restores the 2021 command: `set` only with -set, and
 * -recursion also allowing `while`. -noset turns `set` off.
 */
function dialectOf(f: Flags): Dialect {
  const globalReassign = f.globalReassign;
  return {
    set: f.legacy ? f.set : !f.noSet,
    recursion: f.recursion,
    while: f.while || globalReassign || (f.legacy && f.recursion),
    topLevelControl: f.topLevelControl || globalReassign,
    globalReassign,
    loadBindsGlobally: f.loadBindsGlobally,
  };
}

function parseArgs(argv: readonly string[], io: CliIO): CliArgs | undefined {
  const flags: Flags = {
    recursion: false,
    globalReassign: false,
    while: false,
    topLevelControl: false,
    loadBindsGlobally: false,
    legacy: false,
    noSet: false,
    set: false,
  };
  let program: string | undefined;
  let file: string | undefined;
  let maxSteps = Number.POSITIVE_INFINITY;
  let timeoutMs = Number.POSITIVE_INFINITY;
  let memoryBytes = Number.POSITIVE_INFINITY;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const flag = a.replace(/^--?/, "-");
    switch (flag) {
      case "-set":
        flags.set = true; // obsolete upstream (set is standard); with -legacy it turns set on
        break;
      case "-noset":
        flags.noSet = true;
        break;
      case "-legacy":
        flags.legacy = true;
        break;
      case "-recursion":
        flags.recursion = true;
        break;
      case "-while":
        flags.while = true;
        break;
      case "-globalreassign":
        flags.globalReassign = true;
        break;
      case "-toplevelcontrol":
        flags.topLevelControl = true;
        break;
      case "-loadbindsglobally":
        flags.loadBindsGlobally = true;
        break;
      case "-steps":
      case "-timeout":
      case "-memory": {
        const n = Number(argv[++i]);
        if (!Number.isFinite(n) || n <= 0) {
          io.stderr(`starlark: ${flag} needs a positive number\n${USAGE}`);
          return undefined;
        }
        if (flag === "-steps") maxSteps = n;
        else if (flag === "-timeout") timeoutMs = n;
        else memoryBytes = n;
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
  const dialect = dialectOf(flags);
  if (program !== undefined && file === undefined) {
    return { dialect, filename: "cmdline", source: program, maxSteps, timeoutMs, memoryBytes };
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
  return { dialect, filename: file, source, maxSteps, timeoutMs, memoryBytes };
}

/**
 * Output is buffered and flushed in large writes: print-heavy programs would otherwise be
 * write-bound. Chunks are byte strings (one byte per code unit).
 */
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
    name: `exec ${args.filename}`,
    // print() writes the program's bytes as they are (a cut UTF-8 sequence stays cut), as upstream.
    printBytes: (_t, bytes) => out.write(`${bytes}\n`),
    limits: {
      maxSteps: args.maxSteps,
      deadline: Number.isFinite(args.timeoutMs) ? Date.now() + args.timeoutMs : Number.POSITIVE_INFINITY,
      maxAllocBytes: args.memoryBytes,
    },
  });
  try {
    const program = compile(args.source, {
      filename: args.filename,
      predeclared: Object.keys(PREDECLARED),
      dialect: args.dialect,
    });
    program.init(thread, PREDECLARED, { load: fileLoader(args.filename, args.dialect) });
    out.flush();
    return 0;
  } catch (e) {
    out.flush();
    if (e instanceof StarlarkSyntaxErrors) {
      // Upstream prints the error value, which for several errors is the first one.
      const x = e.errors[0];
      if (x !== undefined) io.stderr(`${x.filename}:${x.line}:${x.col}: ${x.msg}\n`);
      return 1;
    }
    if (e instanceof StarlarkError) {
      io.stderr(`${e.backtrace()}\n`);
      return 1;
    }
    throw e;
  }
}

/**
 * load("x.star", ...) reads x.star relative to the loading file's directory; each file loads
 * once, and a file that is still loading when loaded again is upstream's "cycle in load graph".
 */
function fileLoader(mainFile: string, dialect: Dialect): NonNullable<InitOptions["load"]> {
  const cache = new Map<string, Module | Error | "loading">();
  const base = mainFile === "cmdline" ? process.cwd() : dirname(resolve(mainFile));
  const load: NonNullable<InitOptions["load"]> = (thread, module) => {
    const path = resolve(base, module);
    let entry = cache.get(path);
    if (entry === "loading") throw new Error("cycle in load graph");
    if (entry === undefined) {
      cache.set(path, "loading");
      try {
        const src = readFileSync(path, "utf8");
        const prog = compile(src, { filename: module, predeclared: Object.keys(PREDECLARED), dialect });
        const child = new Thread({
          name: `exec ${module}`,
          printBytes: thread.printBytes,
          print: thread.print,
          limits: thread.limits,
        });
        entry = prog.init(child, PREDECLARED, { load });
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
