/**
 * Error hierarchy shared by the evaluator and the runtime. Messages are the bare
 * go.starlark.net texts (no position); the evaluator attaches call-stack frames.
 */

export interface Position {
  filename: string;
  line: number;
  col: number;
}

export interface Frame {
  name: string;
  pos: Position;
}

export type LimitKind = "steps" | "deadline" | "aborted" | "size" | "memory";

/**
 * Messages are built from Starlark byte strings (UTF-8 bytes in code units); show
 * them to JS as normal strings. A message that is not valid UTF-8 in byte form
 * (e.g. already a normal string with "é") is kept as it is.
 */
function toJsMessage(msg: string): string {
  let high = false;
  for (let i = 0; i < msg.length; i++) {
    const c = msg.charCodeAt(i);
    if (c > 0xff) return msg;
    if (c >= 0x80) high = true;
  }
  if (!high) return msg;
  const bytes = new Uint8Array(msg.length);
  for (let i = 0; i < msg.length; i++) bytes[i] = msg.charCodeAt(i);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return msg;
  }
}

/** The file name of a built-in function's frame (go.starlark.net's `<builtin>`, line 0). */
export const BUILTIN_FILENAME = "<builtin>";

/** Backtraces keep this many innermost and outermost frames; deep recursion elides the middle. */
const KEEP_FRAMES = 32;

/** Base of every error the interpreter raises on purpose. */
export class StarlarkError extends Error {
  constructor(message: string) {
    super(toJsMessage(message));
  }

  /**
   * The call stack when the error happened, outermost first, as go.starlark.net's
   * EvalError.CallStack: Starlark functions and built-ins (whose position is
   * `<builtin>`, line 0). Filled in by the evaluator as the error unwinds.
   */
  frames: Frame[] = [];
  /** How many frames were dropped from the middle of a very deep stack. */
  private omittedFrames = 0;

  override get name(): string {
    return "StarlarkError";
  }

  /** Records the frame the error is unwinding through (it becomes the outermost so far). */
  addOuterFrame(frame: Frame): void {
    const frames = this.frames;
    if (frames.length >= 2 * KEEP_FRAMES + 1) {
      // frames = [outer..., marker, inner...]: drop the innermost outer frame, count it in the marker.
      this.omittedFrames++;
      frames.splice(KEEP_FRAMES - 1, 2, {
        name: `... ${this.omittedFrames} more frames ...`,
        pos: frames[KEEP_FRAMES - 1]?.pos ?? frame.pos,
      });
    }
    frames.unshift(frame);
  }

  /**
   * go.starlark.net's Backtrace: most recent call last; when the innermost frame is a
   * built-in, it is shown as `Error in NAME: msg` instead of as a frame.
   */
  backtrace(): string {
    let frames = this.frames;
    let suffix = "";
    const last = frames[frames.length - 1];
    if (last !== undefined && last.pos.filename === BUILTIN_FILENAME) {
      suffix = ` in ${last.name}`;
      frames = frames.slice(0, -1);
    }
    let out = frames.length > 0 ? "Traceback (most recent call last):\n" : "";
    for (const f of frames) out += `  ${positionString(f.pos)}: in ${f.name}\n`;
    return `${out}Error${suffix}: ${this.message}`;
  }
}

/** go.starlark.net's Position.String: `file:line:col`, `file:line` without a column, `file` without a line. */
function positionString(p: Position): string {
  if (p.line < 1) return p.filename;
  return p.col > 0 ? `${p.filename}:${p.line}:${p.col}` : `${p.filename}:${p.line}`;
}

/** Adds the frame of built-in `name` to a Starlark error unwinding out of it; other errors pass. */
export function addBuiltinFrame(e: unknown, name: string): unknown {
  if (e instanceof StarlarkError)
    e.addOuterFrame({ name, pos: { filename: BUILTIN_FILENAME, line: 0, col: 0 } });
  return e;
}

/** A Starlark runtime error (what `fail`, bad operands, bad arguments... raise). */
export class StarEvalError extends StarlarkError {
  readonly kind: "eval" | LimitKind = "eval";

  override get name(): string {
    return "EvalError";
  }
}

/**
 * A resource limit was hit. It is an StarEvalError so it unwinds like one, but hosts
 * can tell it apart by `kind`, and Starlark code cannot observe or stop it.
 */
export class LimitError extends StarEvalError {
  override readonly kind: LimitKind;

  constructor(kind: LimitKind, message: string) {
    super(message);
    this.kind = kind;
  }

  override get name(): string {
    return "LimitError";
  }
}

/** Shorthand used all over the runtime. */
export function evalError(message: string): StarEvalError {
  return new StarEvalError(message);
}

/**
 * The contract name. Inside this package the class is imported as StarEvalError
 * so it does not shadow JavaScript's global EvalError.
 */
export { StarEvalError as EvalError };
