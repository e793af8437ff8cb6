import type { Position } from "../syntax/position.js";
import { EvalError, StarlarkError } from "../values/index.js";
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

/** JS stack exhaustion inside deeply recursive Starlark becomes an ordinary Starlark error. */
export function normalizeError(e: unknown): unknown {
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new EvalError("Starlark stack overflow (call depth exceeds what the host allows)");
  }
  return e;
}

/** Adds the frame being unwound to the error's backtrace (frames end up outermost first). */
export function addFrame(e: unknown, fr: Frame): unknown {
  const err = normalizeError(e);
  if (err instanceof StarlarkError) {
    err.frames.unshift({
      name: fr.name,
      pos: { filename: fr.module.filename, line: fr.pos.line, col: fr.pos.col },
    });
  }
  return err;
}
