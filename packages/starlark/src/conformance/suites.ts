import type { Dialect } from "../resolve/dialect.js";
import type { ChunkOptions } from "./chunks.js";
import {
  EXPECTED_DIFFERENCES_2021,
  EXPECTED_DIFFERENCES_UPSTREAM,
  type ExpectedDifference,
} from "./expected-differences.js";

/**
 * One folder of go.starlark.net conformance data and the harness rules of the go.starlark.net
 * version it was taken from: which evaluator files its TestExecFile runs, how a chunk's
 * `option:` directives map to dialect options, which call-stack frame a runtime error is
 * matched on, and which modules `load()` offers.
 */
export interface ConformanceSuite {
  /** Short name used in reports: "2021" or "upstream". */
  readonly name: string;
  /** The folder's name under ../shared. */
  readonly dirName: string;
  /** Evaluator files (TestExecFile's list, as the folder's README states). */
  readonly evalFiles: readonly string[];
  readonly dialectOf: (o: ChunkOptions) => Dialect;
  /** Modules `load()` offers besides assert.star (their names, e.g. "json.star"). */
  readonly modules: readonly string[];
  /** Reviewed differences, and how many of Berth's own (not upstream changes) the suite may list. */
  readonly expectedDifferences: ReadonlyMap<string, ExpectedDifference>;
  readonly maxExpectedDifferences: number;
  /** Chunk counts per file stated by the data's README or counted once, so a lost chunk fails. */
  readonly chunkCounts: Readonly<Record<string, number>>;
}

/** go.starlark.net f935de8 (2021): `recursion` also allowed `while`, `globalreassign` top-level control. */
export const SUITE_2021: ConformanceSuite = {
  name: "2021",
  dirName: "starlark-conformance",
  evalFiles: [
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
  ],
  dialectOf: (o) => ({
    set: o.set,
    recursion: o.recursion,
    while: o.recursion,
    globalReassign: o.globalReassign,
    topLevelControl: o.globalReassign,
    loadBindsGlobally: o.loadBindsGlobally,
  }),
  modules: ["json.star"],
  expectedDifferences: EXPECTED_DIFFERENCES_2021,
  maxExpectedDifferences: 5,
  chunkCounts: {
    "assign.star": 42,
    "bool.star": 1,
    "builtins.star": 5,
    "control.star": 1,
    "dict.star": 4,
    "float.star": 1,
    "function.star": 10,
    "int.star": 1,
    "json.star": 2,
    "list.star": 1,
    "misc.star": 9,
    "module.star": 1,
    "recursion.star": 1,
    "set.star": 1,
    "string.star": 1,
    "tuple.star": 1,
    "syntax/errors.star": 52,
    "resolve/resolve.star": 43,
    "starlarkstruct/struct.star": 1,
  },
};

/** go.starlark.net 529d8e8 (June 2026): every option independent (syntax.FileOptions). */
export const SUITE_UPSTREAM: ConformanceSuite = {
  name: "upstream",
  dirName: "starlark-upstream",
  evalFiles: [
    "assign.star",
    "bool.star",
    "builtins.star",
    "bytes.star",
    "control.star",
    "dict.star",
    "float.star",
    "function.star",
    "int.star",
    "json.star",
    "list.star",
    "math.star",
    "misc.star",
    "set.star",
    "string.star",
    "time.star",
    "tuple.star",
    "recursion.star",
    "module.star",
    "while.star",
    // Not in TestExecFile's list: a valid program that must run without error (README).
    "function_param.star",
  ],
  dialectOf: (o) => ({
    set: o.set,
    while: o.while,
    topLevelControl: o.topLevelControl,
    globalReassign: o.globalReassign,
    loadBindsGlobally: o.loadBindsGlobally,
    recursion: o.recursion,
  }),
  modules: ["json.star", "math.star", "time.star"],
  expectedDifferences: EXPECTED_DIFFERENCES_UPSTREAM,
  maxExpectedDifferences: 3,
  chunkCounts: {
    "assign.star": 42,
    "bool.star": 1,
    "builtins.star": 5,
    "bytes.star": 1,
    "control.star": 1,
    "dict.star": 5,
    "float.star": 1,
    "function.star": 11,
    "int.star": 1,
    "json.star": 2,
    "list.star": 1,
    "math.star": 1,
    "misc.star": 9,
    "set.star": 1,
    "string.star": 1,
    "time.star": 1,
    "tuple.star": 1,
    "recursion.star": 1,
    "module.star": 1,
    "while.star": 1,
    "function_param.star": 1,
    "syntax/errors.star": 52,
    "resolve/resolve.star": 44,
    "starlarkstruct/struct.star": 1,
  },
};

export const SUITES: readonly ConformanceSuite[] = [SUITE_2021, SUITE_UPSTREAM];
