import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Loader } from "../eval/frame.js";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import { gensymBuiltin, structBuiltin } from "../library/index.js";
import { mathModule } from "../math/index.js";
import { resolveDialect } from "../resolve/dialect.js";
import { resolveFile } from "../resolve/resolver.js";
import { parseFile } from "../syntax/parser.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import { timeModule } from "../time/index.js";
import { StarlarkError, type StarModule, Thread, type Value } from "../values/index.js";
import { loadAssertModule, setReporter } from "./assert-module.js";
import { type Chunk, splitChunks } from "./chunks.js";
import type { ExpectedDifference } from "./expected-differences.js";
import { type ConformanceSuite, SUITE_2021 } from "./suites.js";
import { Fibonacci, hasfieldsBuiltin } from "./test-types.js";

/** The modules a suite may offer to `load()`, by the name the test files load. */
const LOADABLE_MODULES: Readonly<Record<string, StarModule>> = {
  "json.star": jsonModule,
  "math.star": mathModule,
  "time.star": timeModule,
};

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

function result(
  differences: ReadonlyMap<string, ExpectedDifference>,
  id: string,
  problems: string[],
): ChunkResult {
  const diff = differences.get(id);
  if (
    diff !== undefined &&
    problems.length > 0 &&
    problems.every((p) => diff.problems.some((re) => re.test(p)))
  ) {
    return { id, status: "expected-difference", problems, reason: diff.reason };
  }
  return { id, status: problems.length === 0 ? "pass" : "fail", problems };
}

/** Runs the conformance data found in `dir` by the rules of `suite`. */
export class ConformanceRunner {
  private assertModule: ReadonlyMap<string, Value> | undefined;

  constructor(
    readonly dir: string,
    readonly suite: ConformanceSuite = SUITE_2021,
  ) {}

  private result(id: string, problems: string[]): ChunkResult {
    return result(this.suite.expectedDifferences, id, problems);
  }

  private getAssert(): ReadonlyMap<string, Value> {
    if (this.assertModule === undefined) {
      this.assertModule = loadAssertModule(this.dir, new Thread({ name: "assert.star", print: () => {} }));
    }
    return this.assertModule;
  }

  private loader(file: string): Loader {
    return (thread, module) => {
      if (module === "assert.star") return this.getAssert();
      const builtinModule = this.suite.modules.includes(module) ? LOADABLE_MODULES[module] : undefined;
      if (builtinModule !== undefined) return new Map<string, Value>([[builtinModule.name, builtinModule]]);
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
      hasfields: hasfieldsBuiltin,
      fibonacci: new Fibonacci(),
    };
    const actual: ActualError[] = [];
    try {
      const program = compile(chunk.source, {
        filename: file,
        predeclared: Object.keys(predeclared),
        dialect: this.suite.dialectOf(chunk.options),
      });
      program.init(thread, predeclared, { load: this.loader(file) });
    } catch (e) {
      if (e instanceof StarlarkSyntaxErrors) {
        return this.result(id, [`static error (evaluator chunks must compile): ${e.message}`]);
      }
      if (!(e instanceof StarlarkError)) {
        return this.result(id, [
          `host exception: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        ]);
      }
      // The line is that of the innermost frame in this file: go.starlark.net's eval_test.go walks
      // err.CallStack.At(i) from i = 0, and At(0) is the innermost frame (the data's README says
      // "outermost", but the code and the expectations, e.g. assign.star:171, say innermost).
      const frame = e.frames.findLast((f) => f.pos.filename === file);
      if (frame === undefined)
        return this.result(id, [...failures, `error outside the test file: ${e.backtrace()}`]);
      actual.push({ line: frame.pos.line, msg: e.message });
    }
    return this.result(id, [...failures, ...compareErrors(chunk, actual)]);
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
      return this.result(`syntax/errors.star:${chunk.firstLine}`, compareErrors(chunk, actual));
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
          resolveDialect(this.suite.dialectOf(chunk.options)),
        );
        actual = errors.map((x) => ({ line: x.line, msg: x.msg }));
      } catch (e) {
        if (!(e instanceof StarlarkSyntaxErrors)) throw e;
        actual = e.errors.map((x) => ({ line: x.line, msg: x.msg }));
      }
      return this.result(`resolve/resolve.star:${chunk.firstLine}`, compareErrors(chunk, actual));
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
    return [this.result(id, failures)];
  }

  runAll(): ChunkResult[] {
    return [
      ...this.suite.evalFiles.flatMap((f) => this.runEvalFile(f)),
      ...this.runSyntaxFile(),
      ...this.runResolveFile(),
      ...this.runStructFile(),
    ];
  }
}

/** Finds ../shared/<dirName> beside the repository (CI clones shared/ next to it). */
export function findConformanceDir(from: string, dirName = SUITE_2021.dirName): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, "..", "shared", dirName);
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
