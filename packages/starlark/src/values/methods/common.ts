/** Helpers shared by the built-in method tables. */
import { StarEvalError } from "../errors.js";

/**
 * go.starlark.net's nameErr: "name: msg" for an error a built-in reports about its own work
 * (a frozen table, an unhashable key). Errors that already unwound through Starlark code (a
 * callback's failure) and resource-limit errors pass unchanged, as upstream preserves them.
 */
export function nameErr(name: string, e: unknown): unknown {
  if (e instanceof StarEvalError && e.kind === "eval" && e.frames.length === 0) {
    return new StarEvalError(`${name}: ${e.message}`);
  }
  return e;
}
