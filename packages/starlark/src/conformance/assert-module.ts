import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "../host/compile.js";
import { unpackPositional, wantFloatOrInt } from "../library/unpack.js";
import {
  Builtin,
  callValue,
  decodeByteStringToUtf8,
  encodeUtf8ToByteString,
  freeze,
  None,
  EvalError as StarEvalError,
  StarlarkError,
  StarModule,
  str,
  type Thread,
  type Value,
} from "../values/index.js";
import { goRegExp } from "./go-regexp.js";

/** Thread-local key under which a chunk's recorder of `error(...)` calls lives. */
const REPORTER = "conformance.reporter";

export type Reporter = (msg: string) => void;

export function setReporter(thread: Thread, reporter: Reporter): void {
  thread.setLocal(REPORTER, reporter);
}

/** The host built-ins assert.star is written against (starlarktest). */
function assertBuiltins(): Record<string, Value> {
  return {
    error: new Builtin("error", (thread, args) => {
      const reporter = thread.getLocal(REPORTER) as Reporter | undefined;
      const msg =
        args.length === 1 && typeof args[0] === "string" ? args[0] : args.map((a) => str(a)).join(" ");
      if (reporter === undefined)
        throw new StarEvalError(`assertion failed outside a test: ${decodeByteStringToUtf8(msg)}`);
      reporter(decodeByteStringToUtf8(msg));
      return None;
    }),
    catch: new Builtin("catch", (thread, args) => {
      try {
        callValue(thread, args[0] ?? None, []);
        return None;
      } catch (e) {
        if (e instanceof StarlarkError) return encodeUtf8ToByteString(e.message);
        throw e;
      }
    }),
    matches: new Builtin("matches", (_thread, args) => {
      const [pattern, s] = args;
      if (typeof pattern !== "string" || typeof s !== "string") {
        throw new StarEvalError("matches: want (pattern string, str string)");
      }
      return goRegExp(decodeByteStringToUtf8(pattern)).test(decodeByteStringToUtf8(s));
    }),
    module: new Builtin("module", (_thread, args, kwargs) => {
      const name = args[0];
      if (typeof name !== "string") throw new StarEvalError("module: want a name string");
      return new StarModule(name, new Map(kwargs));
    }),
    // Within one ULP (starlarktest's floateq); assert.eq uses it for floats in the newest data.
    _floateq: new Builtin("floateq", (_thread, args, kwargs) => {
      const [x, y] = unpackPositional("floateq", args, kwargs, 2, 2);
      return floatsWithinOneUlp(
        wantFloatOrInt("floateq", "x", x ?? None),
        wantFloatOrInt("floateq", "y", y ?? None),
      );
    }),
    _freeze: new Builtin("freeze", (_thread, args) => {
      const x = args[0] ?? None;
      freeze(x);
      return x;
    }),
  };
}

/** Whether two floats are equal or adjacent doubles (NaN equals NaN here). */
export function floatsWithinOneUlp(x: number, y: number): boolean {
  if (x === y) return true;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  const view = new DataView(new ArrayBuffer(16));
  view.setFloat64(0, x);
  view.setFloat64(8, y);
  const a = view.getBigUint64(0);
  const b = view.getBigUint64(8);
  return a === b + 1n || b === a + 1n;
}

/** Runs starlarktest/assert.star once; its module (assert, freeze) is shared by every chunk. */
export function loadAssertModule(conformanceDir: string, thread: Thread): ReadonlyMap<string, Value> {
  const filename = join(conformanceDir, "starlarktest", "assert.star");
  const builtins = assertBuiltins();
  const program = compile(readFileSync(filename, "utf8"), { filename, predeclared: Object.keys(builtins) });
  return program.init(thread, builtins).globals;
}
