/**
 * The few places the host touches @berth/starlark's host API (compile,
 * threads, errors, function introspection), kept in one file so the rest of
 * the host deals in plain outcomes.
 */
import {
  BUILTIN_FILENAME,
  compile,
  type Program,
  StarFunction,
  StarlarkError,
  Thread,
  type Value,
} from "@berth/starlark";
import { BUILTIN_NAMES } from "./builtins.js";
import { PROGRAM_NAME, positioned } from "./messages.js";
import type { ScriptletLimits } from "./port.js";

/**
 * The LXD/Incus dialect: floats, lambda, nested def and `set()` (Incus
 * ≥6.14); no `while`, recursion, top-level `if`/`for` or global reassignment.
 */
const DIALECT = { set: true, while: false, recursion: false, globalReassign: false, topLevelControl: false };

/** A scan, parse or resolve error, already formatted `instance_placement:LINE:COL: msg`. */
export class ScriptletCompileError extends Error {
  override readonly name = "ScriptletCompileError";
}

interface SyntaxErrorEntry {
  filename: string;
  line: number;
  col: number;
  msg: string;
}

function syntaxErrorsOf(err: unknown): SyntaxErrorEntry[] | undefined {
  if (typeof err !== "object" || err === null || !("errors" in err)) return undefined;
  const errors = (err as { errors: unknown }).errors;
  return Array.isArray(errors) ? (errors as SyntaxErrorEntry[]) : undefined;
}

/** Compiles with the builtin names predeclared; throws ScriptletCompileError with go's first error. */
export function compileScriptlet(source: string): Program {
  try {
    return compile(source, { filename: PROGRAM_NAME, predeclared: BUILTIN_NAMES, dialect: DIALECT });
  } catch (err) {
    const first = syntaxErrorsOf(err)?.[0];
    if (first !== undefined) throw new ScriptletCompileError(positioned(first, first.msg));
    throw err;
  }
}

/** A thread bounded by the limits; `print` goes to the given sink. */
export function boundedThread(
  limits: ScriptletLimits,
  print: (msg: string) => void,
  signal?: AbortSignal,
): Thread {
  return new Thread({
    name: PROGRAM_NAME,
    print: (_thread, msg) => print(msg),
    limits: {
      maxSteps: limits.maxSteps,
      deadline: Date.now() + limits.timeoutMs,
      signal,
      maxStringLength: limits.maxStringLength,
      maxCollectionSize: limits.maxCollectionSize,
    },
  });
}

/** Starlark errors (runtime, limits) as opposed to bugs in the host or interpreter. */
export function isStarlarkError(err: unknown): err is StarlarkError {
  return err instanceof StarlarkError;
}

/** Where a Starlark runtime error happened: the innermost Starlark frame (not a built-in's), if any. */
export function errorPosition(
  err: StarlarkError,
): { filename: string; line: number; col: number } | undefined {
  return err.frames.findLast((f) => f.pos.filename !== BUILTIN_FILENAME)?.pos;
}

/** Parameter names of a Starlark function (incl. *args/**kwargs, go's order), or undefined when `v` is none. */
export function functionParams(v: Value): readonly string[] | undefined {
  return v instanceof StarFunction ? v.params : undefined;
}
