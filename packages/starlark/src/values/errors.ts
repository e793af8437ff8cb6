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

export type LimitKind = "steps" | "deadline" | "aborted" | "size";

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

/** Base of every error the interpreter raises on purpose. */
export class StarlarkError extends Error {
  constructor(message: string) {
    super(toJsMessage(message));
  }

  /** Frames of the Starlark call stack, outermost first; filled in by the evaluator. */
  frames: Frame[] = [];

  override get name(): string {
    return "StarlarkError";
  }

  /** go.starlark.net style traceback: most recent call last. */
  backtrace(): string {
    let out = "Traceback (most recent call last):\n";
    for (const f of this.frames) {
      out += `  ${f.pos.filename}:${f.pos.line}:${f.pos.col}: in ${f.name}\n`;
    }
    return `${out}Error: ${this.message}`;
  }
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
