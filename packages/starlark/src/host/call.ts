import { normalizeError } from "../eval/errors.js";
import { callValue, encodeUtf8ToByteString, type Thread, type Value } from "../values/index.js";

/**
 * Calls a Starlark callable (e.g. a global function of an initialized module) from the host.
 * Keyword names are normal JS strings. Errors are EvalErrors carrying the Starlark backtrace.
 */
export function call(
  thread: Thread,
  fn: Value,
  args: readonly Value[],
  kwargs?: Record<string, Value> | readonly (readonly [string, Value])[],
): Value {
  const kw: [string, Value][] = [];
  if (kwargs !== undefined) {
    const pairs = Array.isArray(kwargs) ? kwargs : Object.entries(kwargs);
    for (const [k, v] of pairs as [string, Value][]) kw.push([encodeUtf8ToByteString(k), v]);
  }
  thread.checkCancelled();
  try {
    return callValue(thread, fn, [...args], kw);
  } catch (e) {
    throw normalizeError(e);
  }
}
