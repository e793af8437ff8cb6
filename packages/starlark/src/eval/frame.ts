import type { Position } from "../syntax/position.js";
import type { Thread, Value } from "../values/index.js";
import type { StarFunction } from "./function.js";

/** A captured variable shared between a function and the closures it creates. */
export class Cell {
  constructor(public v: Value | undefined) {}
}

/** Run-specific module state, reached from every frame (compiled code is shared across runs). */
export class ModuleState {
  constructor(
    readonly filename: string,
    readonly globals: (Value | undefined)[],
    readonly predeclared: (Value | undefined)[],
    readonly loader: Loader | undefined,
  ) {}
}

export type Loader = (thread: Thread, module: string) => ReadonlyMap<string, Value> | Record<string, Value>;

/**
 * One activation of a function (or of the module top level). Locals live in an array indexed
 * by resolver slot; captured locals hold a Cell in their slot.
 */
export class Frame {
  /** Set by `return`; read by the call wrapper. */
  ret: Value | undefined = undefined;
  /** Position of the operation being executed, maintained only where an error can occur. */
  pos: Position;

  constructor(
    readonly locals: (Value | Cell | undefined)[],
    readonly fn: StarFunction | undefined,
    readonly module: ModuleState,
    readonly thread: Thread,
    readonly name: string,
    pos: Position,
  ) {
    this.pos = pos;
  }
}

/** Statement results: how control leaves a statement. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;
export type Control = 0 | 1 | 2 | 3;

export type ExprFn = (fr: Frame) => Value;
export type StmtFn = (fr: Frame) => Control;
