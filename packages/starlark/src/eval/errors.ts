import type { Position } from "../syntax/position.js";
import { LimitError, EvalError as StarEvalError, StarlarkError } from "../values/index.js";
import type { Frame } from "./frame.js";

/** The frame that last recorded a position on an in-flight error (innermost annotation wins). */
const annotatedFrame = new WeakMap<object, Frame>();

/**
 * Records, on the way out, where in frame `fr` the error `e` happened: the first (innermost)
 * annotation within a frame wins. Non-Starlark errors are converted (stack overflow) or passed on.
 */
export function annotate(e: unknown, fr: Frame, pos: Position): never {
  const err = normalizeError(e);
  if (err instanceof StarlarkError && annotatedFrame.get(err) !== fr) {
    annotatedFrame.set(err, fr);
    fr.pos = pos;
  }
  throw err;
}

/** Marks an error as already positioned in `fr` (used by call sites, which set fr.pos before calling). */
export function claim(e: unknown, fr: Frame): never {
  const err = normalizeError(e);
  if (err instanceof StarlarkError) annotatedFrame.set(err, fr);
  throw err;
}

/**
 * JS engine limits become ordinary Starlark errors: stack exhaustion inside deeply recursive
 * Starlark, and strings/arrays beyond what the engine can hold. (Plain comparisons only: this
 * runs with the stack nearly exhausted, and a failed attempt is retried by the next frame out.)
 */
export function normalizeError(e: unknown): unknown {
  if (e instanceof RangeError) {
    try {
      const m = e.message;
      if (m === "Maximum call stack size exceeded") {
        // Upstream's text; here the host's JS stack ran out first (see MAX_CALL_DEPTH).
        return new EvalErrorClass("Starlark stack overflow");
      }
      if (m === "Invalid string length" || m === "Invalid array length") {
        return new LimitErrorClass("size", `value too large for the host (${m.toLowerCase()})`);
      }
    } catch {
      // Still too close to the stack limit: the next frame out tries again.
    }
  }
  return e;
}

// Bound at load time so the conversion needs no module lookups when the stack is exhausted.
const EvalErrorClass = StarEvalError;
const LimitErrorClass = LimitError;

/** Adds the frame being unwound to the error's backtrace (frames end up outermost first). */
export function addFrame(e: unknown, fr: Frame): unknown {
  const err = normalizeError(e);
  if (err instanceof StarlarkError) {
    err.addOuterFrame({
      name: fr.name,
      pos: { filename: fr.module.filename, line: fr.pos.line, col: fr.pos.col },
    });
  }
  return err;
}
