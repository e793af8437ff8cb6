import type { Position } from "../syntax/position.js";
import {
  type Callable,
  None,
  quoteString,
  StarDict,
  EvalError as StarEvalError,
  StarlarkError,
  StarTuple,
  type Thread,
  type Value,
} from "../values/index.js";
import { addFrame } from "./errors.js";
import { Cell, Frame, type ModuleState, type StmtFn } from "./frame.js";

/** The compiled, run-independent part of a def or lambda. */
export interface Code {
  readonly name: string;
  readonly pos: Position;
  /** Where the frame points before the body runs (see instruction-position.ts). */
  readonly entryPos: Position;
  readonly filename: string;
  readonly numLocals: number;
  /** Parameters that may be given positionally (before any `*`). */
  readonly numPositional: number;
  /** Ordinary parameters: positional plus keyword-only; their slots are 0..numParams-1. */
  readonly numParams: number;
  readonly numKwonly: number;
  readonly hasVarargs: boolean;
  readonly hasKwargs: boolean;
  /** All parameter names in slot order, including *args and **kwargs. */
  readonly paramNames: readonly string[];
  /** Local slots captured by inner functions: they hold a Cell. */
  readonly cellSlots: readonly number[];
  /** Only plain positional parameters and no cells: calls can bind arguments straight into slots. */
  readonly simple: boolean;
  readonly recursionAllowed: boolean;
  body: StmtFn;
  /** Activations in progress; used to reject recursion when the dialect forbids it. */
  active: number;
}

let nextFunctionId = 1;

/** A Starlark function value (def or lambda): code plus defaults and captured cells. */
export class StarFunction implements Callable {
  readonly type = "function";
  private readonly id = nextFunctionId++;
  private frozen = false;

  constructor(
    readonly code: Code,
    /** One entry per ordinary parameter; undefined where the parameter is required. */
    readonly defaults: (Value | undefined)[],
    readonly freevars: Cell[],
    readonly module: ModuleState,
  ) {}

  get name(): string {
    return this.code.name;
  }

  /** Definition position, as go.starlark.net's Function.Position. */
  get position(): { filename: string; line: number; col: number } {
    return { filename: this.code.filename, line: this.code.pos.line, col: this.code.pos.col };
  }

  /** Number of parameters including *args and **kwargs (go.starlark.net's NumParams). */
  numParams(): number {
    return this.code.paramNames.length;
  }

  /** Name of parameter i (go.starlark.net's Param). */
  param(i: number): string {
    const name = this.code.paramNames[i];
    if (name === undefined) throw new RangeError(`parameter index ${i} out of range`);
    return name;
  }

  get params(): readonly string[] {
    return this.code.paramNames;
  }

  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const d of this.defaults) if (typeof d === "object") d.freeze();
    for (const c of this.freevars) if (typeof c.v === "object") c.v.freeze();
  }

  truth(): boolean {
    return true;
  }

  hash(): number {
    return this.id;
  }

  repr(): string {
    return `<function ${this.code.name}>`;
  }

  call(thread: Thread, args: Value[], kwargs: [string, Value][]): Value {
    const locals = new Array<Value | Cell | undefined>(this.code.numLocals);
    try {
      bindArguments(this, locals, args, kwargs);
    } catch (e) {
      throw this.entryFrame(e);
    }
    return this.invoke(thread, locals);
  }

  /** An error raised as the call starts (arguments, recursion) gets the callee's frame, as upstream. */
  private entryFrame(e: unknown): unknown {
    if (e instanceof StarlarkError) {
      const { name, filename, entryPos } = this.code;
      e.addOuterFrame({ name, pos: { filename, line: entryPos.line, col: entryPos.col } });
    }
    return e;
  }

  /** Runs the body with parameters already bound in `locals`. */
  invoke(thread: Thread, locals: (Value | Cell | undefined)[]): Value {
    const code = this.code;
    const cells = code.cellSlots;
    for (let i = 0; i < cells.length; i++) {
      const slot = cells[i] as number;
      locals[slot] = new Cell(locals[slot] as Value | undefined);
    }
    thread.checkStep();
    const fr = new Frame(locals, this, this.module, thread, code.name, code.pos);
    if (code.recursionAllowed) {
      // Runaway recursion stops at upstream's limit, long before a host with a big enough stack
      // (the starlark command's, see cli/main.ts) would run out.
      if (thread.callDepth >= MAX_CALL_DEPTH)
        throw this.entryFrame(new StarEvalError("Starlark stack overflow"));
      thread.callDepth++;
      try {
        code.body(fr);
      } catch (e) {
        thread.callDepth--;
        throw addFrame(e, fr);
      }
      thread.callDepth--; // (not in a finally block: that cost fib_rec ~5%)
      return fr.ret ?? None;
    }
    // Without the recursion option, an activation of the same code already on the stack is an error.
    if (code.active > 0) throw this.entryFrame(new StarEvalError(`function ${code.name} called recursively`));
    code.active++;
    try {
      code.body(fr);
    } catch (e) {
      throw addFrame(e, fr);
    } finally {
      code.active--;
    }
    return fr.ret ?? None;
  }
}

/** go.starlark.net refuses a call when its thread already has 100,000 frames. */
export const MAX_CALL_DEPTH = 100_000;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Binds call arguments to parameter slots, with go.starlark.net's checks and messages. */
export function bindArguments(
  fn: StarFunction,
  locals: (Value | Cell | undefined)[],
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
): void {
  const code = fn.code;
  if (code.paramNames.length === 0) {
    const given = args.length + kwargs.length;
    if (given > 0) throw new StarEvalError(`function ${code.name} accepts no arguments (${given} given)`);
    return;
  }
  const nparams = code.numParams;
  const npos = code.numPositional;
  let kwdict: StarDict | undefined;
  if (code.hasKwargs) {
    kwdict = new StarDict();
    locals[nparams + (code.hasVarargs ? 1 : 0)] = kwdict;
  }
  let n = args.length;
  if (n > npos) {
    if (!code.hasVarargs) {
      const numDefaults = fn.defaults.filter((d) => d !== undefined).length;
      const atMost = numDefaults > code.numKwonly ? "at most " : "";
      throw new StarEvalError(
        `function ${code.name} accepts ${atMost}${plural(npos, "positional argument")} (${args.length} given)`,
      );
    }
    n = npos;
  }
  for (let i = 0; i < n; i++) locals[i] = args[i];
  if (code.hasVarargs) locals[nparams] = new StarTuple(args.slice(n));

  for (const [k, v] of kwargs) {
    const i = code.paramNames.indexOf(k);
    if (i >= 0 && i < nparams) {
      if (locals[i] !== undefined) {
        throw new StarEvalError(`function ${code.name} got multiple values for parameter ${quoteString(k)}`);
      }
      locals[i] = v;
      continue;
    }
    if (kwdict === undefined) {
      throw new StarEvalError(`function ${code.name} got an unexpected keyword argument ${quoteString(k)}`);
    }
    if (kwdict.get(k) !== undefined) {
      throw new StarEvalError(`function ${code.name} got multiple values for parameter ${quoteString(k)}`);
    }
    kwdict.setKey(k, v);
  }

  if (n < nparams || code.numKwonly > 0) {
    const missing: string[] = [];
    for (let i = n; i < nparams; i++) {
      if (locals[i] !== undefined) continue;
      const d = fn.defaults[i];
      if (d === undefined) missing.push(code.paramNames[i] as string);
      else locals[i] = d;
    }
    if (missing.length > 0) {
      throw new StarEvalError(
        `function ${code.name} missing ${plural(missing.length, "argument")} (${missing.join(", ")})`,
      );
    }
  }
}
