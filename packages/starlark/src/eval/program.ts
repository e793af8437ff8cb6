import { type Dialect, type ResolvedDialect, resolveDialect } from "../resolve/dialect.js";
import { resolveFile } from "../resolve/resolver.js";
import type { FileNode } from "../syntax/ast.js";
import { parseFile } from "../syntax/parser.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import { freeze, EvalError as StarEvalError, type Thread, type Value } from "../values/index.js";
import { compileFunctionCode } from "./compiler.js";
import type { CompileContext } from "./context.js";
import { addFrame, normalizeError } from "./errors.js";
import { Cell, Frame, type Loader, ModuleState } from "./frame.js";
import type { Code } from "./function.js";

export interface CompileOptions {
  filename: string;
  /** Names the host will supply values for at init time. */
  predeclared?: Iterable<string>;
  dialect?: Dialect;
}

export interface InitOptions {
  /** Resolves `load("name", ...)`; without it, load fails with go.starlark.net's message. */
  load?: Loader;
}

/** The result of running a program's top level: its (frozen) global variables. */
export class Module {
  constructor(readonly globals: ReadonlyMap<string, Value>) {}

  get(name: string): Value | undefined {
    return this.globals.get(name);
  }
}

/** A compiled program: compile once, `init` as many times as needed (each run is independent). */
export class Program {
  constructor(
    readonly filename: string,
    readonly dialect: ResolvedDialect,
    private readonly toplevel: Code,
    private readonly globalNames: readonly string[],
    private readonly predeclaredIndex: ReadonlyMap<string, number>,
    private readonly toplevelCells: readonly number[],
  ) {}

  /** Names of the module's global variables, in definition order. */
  get globalsDeclared(): readonly string[] {
    return this.globalNames;
  }

  /**
   * Runs the top level on `thread` with the given predeclared values, freezes the globals
   * and returns them. Throws StarEvalError (with backtrace frames) on failure.
   */
  init(
    thread: Thread,
    predeclared: Record<string, Value> | ReadonlyMap<string, Value> = {},
    opts: InitOptions = {},
  ): Module {
    const pre = new Array<Value | undefined>(this.predeclaredIndex.size);
    for (const [name, slot] of this.predeclaredIndex) {
      pre[slot] =
        predeclared instanceof Map ? predeclared.get(name) : (predeclared as Record<string, Value>)[name];
    }
    const globals = new Array<Value | undefined>(this.globalNames.length);
    const state = new ModuleState(this.filename, globals, pre, opts.load);
    const locals = new Array<Value | Cell | undefined>(this.toplevel.numLocals);
    for (const slot of this.toplevelCells) locals[slot] = new Cell(undefined);
    const fr = new Frame(locals, undefined, state, thread, "<toplevel>", this.toplevel.pos);
    try {
      thread.checkCancelled();
      this.toplevel.body(fr);
    } catch (e) {
      throw addFrame(normalizeError(e), fr);
    }
    const out = new Map<string, Value>();
    this.globalNames.forEach((name, i) => {
      const v = globals[i];
      if (v !== undefined) {
        freeze(v);
        out.set(name, v);
      }
    });
    return new Module(out);
  }
}

/**
 * Scans, parses, resolves and compiles `source`. Throws StarlarkSyntaxErrors listing the
 * problems (the first scan/parse error, or every resolve error).
 */
export function compileWithUniverse(
  source: string,
  opts: CompileOptions,
  universeFor: (dialect: ResolvedDialect) => ReadonlyMap<string, Value>,
): Program {
  const dialect = resolveDialect(opts.dialect);
  const filename = opts.filename;
  const predeclared = new Set(opts.predeclared ?? []);
  const universe = universeFor(dialect);
  let file: FileNode;
  let code: Code;
  let toplevelNode: FileNode["toplevel"];
  const ctx: CompileContext = { filename, dialect, universe, predeclaredIndex: new Map() };
  try {
    file = parseFile(filename, source);
    const errors = resolveFile(
      file,
      { isPredeclared: (n) => predeclared.has(n), isUniversal: (n) => universe.has(n) },
      dialect,
    );
    if (errors.length > 0) throw new StarlarkSyntaxErrors(errors);
    toplevelNode = file.toplevel;
    if (toplevelNode === undefined) throw new StarEvalError("internal error: resolver produced no top level");
    toplevelNode.body.push(...file.stmts);
    code = compileFunctionCode(ctx, toplevelNode);
  } catch (e) {
    // Bracket nesting is bounded by the parser; very long operator chains (a + b + ...) build
    // deep trees that can still exhaust the JS stack in the resolver or compiler.
    if (e instanceof RangeError) {
      throw new StarlarkSyntaxErrors([{ filename, line: 1, col: 1, msg: "program too deeply nested" }]);
    }
    throw e;
  }
  const cells: number[] = [];
  toplevelNode.locals.forEach((b, i) => {
    if (b.scope === "cell") cells.push(i);
  });
  return new Program(
    filename,
    dialect,
    code,
    (file.globals ?? []).map((b) => b.name),
    ctx.predeclaredIndex,
    cells,
  );
}
