import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Loader } from "../eval/frame.js";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import { gensymBuiltin, structBuiltin } from "../library/index.js";
import { type Dialect, resolveDialect } from "../resolve/dialect.js";
import { resolveFile } from "../resolve/resolver.js";
import { parseFile } from "../syntax/parser.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import { StarlarkError, Thread, type Value } from "../values/index.js";
import { loadAssertModule, setReporter } from "./assert-module.js";
import { type Chunk, type ChunkOptions, splitChunks } from "./chunks.js";
import { EXPECTED_DIFFERENCES } from "./expected-differences.js";
import { Fibonacci, hasfieldsBuiltin } from "./test-types.js";

/** The 16 evaluator files of go.starlark.net's starlark/testdata. */
export const EVAL_FILES = [
  "assign.star",
  "bool.star",
  "builtins.star",
  "control.star",
  "dict.star",
  "float.star",
  "function.star",
  "int.star",
  "json.star",
  "list.star",
  "misc.star",
  "module.star",
  "recursion.star",
  "set.star",
  "string.star",
  "tuple.star",
];

export type ChunkStatus = "pass" | "fail" | "expected-difference";

export interface ChunkResult {
  /** "<file>:<first line>", e.g. "assign.star:12". */
  readonly id: string;
  readonly status: ChunkStatus;
  /** Failures (empty when the chunk passed). */
  readonly problems: readonly string[];
  /** For expected differences: the reviewed reason. */
  readonly reason?: string;
}

interface ActualError {
  line: number;
  msg: string;
}

function dialectOf(o: ChunkOptions): Dialect {
  return {
    set: o.set,
    recursion: o.recursion,
    while: o.recursion,
    globalReassign: o.globalReassign,
    topLevelControl: o.globalReassign,
    loadBindsGlobally: o.loadBindsGlobally,
  };
}

/** Matches actual errors against a chunk's `###` lines, go.starlark.net's chunkedfile rules. */
function compareErrors(chunk: Chunk, actual: readonly ActualError[]): string[] {
  const problems: string[] = [];
  const used = new Set<number>();
  for (const err of actual) {
    const i = chunk.expectations.findIndex((x, k) => !used.has(k) && x.line === err.line);
    const want = chunk.expectations[i];
    if (want === undefined) {
      problems.push(`line ${err.line}: unexpected error: ${err.msg}`);
      continue;
    }
    used.add(i);
    if (!want.regexp.test(err.msg)) {
      problems.push(
        `line ${err.line}: error "${err.msg}" does not match pattern ${JSON.stringify(want.pattern)}`,
      );
    }
  }
  chunk.expectations.forEach((x, k) => {
    if (!used.has(k)) problems.push(`line ${x.line}: expected error matching ${JSON.stringify(x.pattern)}`);
  });
  return problems;
}

function result(id: string, problems: string[]): ChunkResult {
  const diff = EXPECTED_DIFFERENCES.get(id);
  if (
    diff !== undefined &&
    problems.length > 0 &&
    problems.every((p) => diff.problems.some((re) => re.test(p)))
  ) {
    return { id, status: "expected-difference", problems, reason: diff.reason };
  }
  return { id, status: problems.length === 0 ? "pass" : "fail", problems };
}

/** Runs conformance data found in `dir` (the shared starlark-conformance folder). */
export class ConformanceRunner {
  private assertModule: ReadonlyMap<string, Value> | undefined;

  constructor(readonly dir: string) {}

  private getAssert(): ReadonlyMap<string, Value> {
    if (this.assertModule === undefined) {
      this.assertModule = loadAssertModule(this.dir, new Thread({ name: "assert.star", print: () => {} }));
    }
    return this.assertModule;
  }

  private loader(file: string): Loader {
    const jsonStar = new Map<string, Value>([["json", jsonModule]]);
    return (thread, module) => {
      if (module === "assert.star") return this.getAssert();
      if (module === "json.star") return jsonStar;
      const path = resolve(dirname(file), module);
      const program = compile(readFileSync(path, "utf8"), { filename: path });
      return program.init(new Thread({ print: thread.print }), {}, { load: this.loader(path) }).globals;
    };
  }

  /** Runs one evaluator file (e.g. "assign.star"), one result per chunk. */
  runEvalFile(name: string): ChunkResult[] {
    const file = join(this.dir, name);
    return splitChunks(readFileSync(file, "utf8")).map((chunk) => this.runEvalChunk(name, file, chunk));
  }

  private runEvalChunk(name: string, file: string, chunk: Chunk): ChunkResult {
    const id = `${name}:${chunk.firstLine}`;
    const failures: string[] = [];
    const thread = new Thread({ name: id, print: () => {}, limits: { maxSteps: 50_000_000 } });
    setReporter(thread, (msg) => failures.push(`assertion failed: ${msg}`));
    const predeclared = {
      struct: structBuiltin,
      gensym: gensymBuiltin,
      hasfields: hasfieldsBuiltin,
      fibonacci: new Fibonacci(),
    };
    const actual: ActualError[] = [];
    try {
      const program = compile(chunk.source, {
        filename: file,
        predeclared: Object.keys(predeclared),
        dialect: dialectOf(chunk.options),
      });
      program.init(thread, predeclared, { load: this.loader(file) });
    } catch (e) {
      if (e instanceof StarlarkSyntaxErrors) {
        return result(id, [`static error (evaluator chunks must compile): ${e.message}`]);
      }
      if (!(e instanceof StarlarkError)) {
        return result(id, [`host exception: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`]);
      }
      // The innermost frame in this file gives the line (go.starlark.net's eval_test.go).
      const frame = [...e.frames].reverse().find((f) => f.pos.filename === file);
      actual.push({ line: frame?.pos.line ?? 0, msg: e.message });
    }
    return result(id, [...failures, ...compareErrors(chunk, actual)]);
  }

  /** syntax/errors.star: parse only; the first error is compared. */
  runSyntaxFile(): ChunkResult[] {
    const file = join(this.dir, "syntax", "errors.star");
    return splitChunks(readFileSync(file, "utf8")).map((chunk) => {
      const actual: ActualError[] = [];
      try {
        parseFile(file, chunk.source);
      } catch (e) {
        if (!(e instanceof StarlarkSyntaxErrors)) throw e;
        for (const err of e.errors) actual.push({ line: err.line, msg: err.msg });
      }
      return result(`syntax/errors.star:${chunk.firstLine}`, compareErrors(chunk, actual));
    });
  }

  /** resolve/resolve.star: parse and resolve with predeclared M and universal U, float. */
  runResolveFile(): ChunkResult[] {
    const file = join(this.dir, "resolve", "resolve.star");
    const universal = new Set(["U", "float"]);
    return splitChunks(readFileSync(file, "utf8")).map((chunk) => {
      let actual: ActualError[] = [];
      try {
        const ast = parseFile(file, chunk.source);
        const errors = resolveFile(
          ast,
          { isPredeclared: (n) => n === "M", isUniversal: (n) => universal.has(n) },
          resolveDialect(dialectOf(chunk.options)),
        );
        actual = errors.map((x) => ({ line: x.line, msg: x.msg }));
      } catch (e) {
        if (!(e instanceof StarlarkSyntaxErrors)) throw e;
        actual = e.errors.map((x) => ({ line: x.line, msg: x.msg }));
      }
      return result(`resolve/resolve.star:${chunk.firstLine}`, compareErrors(chunk, actual));
    });
  }

  /** starlarkstruct/struct.star: one program (not chunked), with struct and gensym predeclared. */
  runStructFile(): ChunkResult[] {
    const file = join(this.dir, "starlarkstruct", "struct.star");
    const id = "starlarkstruct/struct.star:1";
    const failures: string[] = [];
    const thread = new Thread({ name: id, print: () => {}, limits: { maxSteps: 50_000_000 } });
    setReporter(thread, (msg) => failures.push(`assertion failed: ${msg}`));
    const predeclared = { struct: structBuiltin, gensym: gensymBuiltin };
    try {
      const program = compile(readFileSync(file, "utf8"), {
        filename: file,
        predeclared: Object.keys(predeclared),
      });
      program.init(thread, predeclared, { load: this.loader(file) });
    } catch (e) {
      if (!(e instanceof StarlarkError || e instanceof StarlarkSyntaxErrors)) throw e;
      failures.push(`unexpected error: ${e.message}`);
    }
    return [result(id, failures)];
  }

  runAll(): ChunkResult[] {
    return [
      ...EVAL_FILES.flatMap((f) => this.runEvalFile(f)),
      ...this.runSyntaxFile(),
      ...this.runResolveFile(),
      ...this.runStructFile(),
    ];
  }
}

/** Finds ../shared/starlark-conformance beside the repository (CI clones shared/ next to it). */
export function findConformanceDir(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, "..", "shared", "starlark-conformance");
    if (existsSync(join(candidate, "README.md"))) return resolve(candidate);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function summarize(results: readonly ChunkResult[]): { pass: number; fail: number; expected: number } {
  return {
    pass: results.filter((r) => r.status === "pass").length,
    fail: results.filter((r) => r.status === "fail").length,
    expected: results.filter((r) => r.status === "expected-difference").length,
  };
}
