/**
 * The Starlark value representation (see notes/starlark-contract.md):
 * None singleton, JS boolean, int as number|bigint (normalized), boxed StarFloat,
 * byte-string JS strings, and objects implementing StarValue for everything else.
 */
import { addBuiltinFrame, StarEvalError } from "./errors.js";
import type { Thread } from "./thread.js";

export type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type BinaryOp = "+" | "-" | "*" | "/" | "//" | "%" | "&" | "|" | "^" | "<<" | ">>" | "in" | "not in";
export type UnaryOp = "-" | "+" | "~" | "not";

/** A Starlark iterator; `next()` returns undefined when exhausted. Always call `done()`. */
export interface StarIterator {
  next(): Value | undefined;
  done(): void;
}

/**
 * Every non-primitive Starlark value. Built-in types are dispatched by the
 * operations directly; host types use the optional hooks.
 */
export interface StarValue {
  /** The name type() reports. */
  readonly type: string;
  /** Makes the value (and everything reachable from it) immutable. */
  freeze(): void;
  truth(): boolean;
  /** Throws StarEvalError("unhashable type: T") when the value is not hashable. */
  hash(): number;
  /** repr as a byte string; default `<type>`. The thread (when known) supplies size limits. */
  repr?(thread?: Thread): string;
  attrNames?(): string[];
  /** undefined: no such attribute. */
  getAttr?(name: string): Value | undefined;
  setField?(name: string, value: Value): void;
  getIndex?(key: Value): Value;
  setIndex?(key: Value, value: Value): void;
  len?(): number;
  iterate?(): StarIterator;
  /** Called only when both operands have the same `type`. */
  compareSameType?(op: CompareOp, other: StarValue, depth: number): boolean;
  /** undefined: operation not supported, the caller reports the error. */
  binary?(op: BinaryOp, other: Value, side: "left" | "right"): Value | undefined;
  unary?(op: UnaryOp): Value | undefined;
}

// None is the NoneType singleton, itself a StarValue.
export type Value = boolean | number | bigint | string | StarValue;

/** Anything callable from Starlark. */
export interface Callable extends StarValue {
  readonly name: string;
  call(thread: Thread, args: Value[], kwargs: [string, Value][]): Value;
}

export class NoneType implements StarValue {
  readonly type = "NoneType";
  freeze(): void {}
  truth(): boolean {
    return false;
  }
  hash(): number {
    return 0;
  }
  repr(): string {
    return "None";
  }
}

export const None: NoneType = Object.freeze(new NoneType()) as NoneType;

/**
 * Puts a class's Starlark type name on its prototype. The values that programs create by the
 * hundred thousand (floats, tuples, lists, dicts, sets) are then one field smaller each, which
 * shows directly in garbage-collection time; reading `type` costs the same.
 */
export function typeNameOnPrototype(cls: { prototype: object }, type: string): void {
  Object.defineProperty(cls.prototype, "type", { value: type, enumerable: false, writable: false });
}

/** A Starlark float; boxed so that 1 and 1.0 remain distinct values. */
export class StarFloat implements StarValue {
  declare readonly type: "float";
  constructor(readonly value: number) {}
  freeze(): void {}
  truth(): boolean {
    return this.value !== 0;
  }
  hash(): number {
    return hashNumber(this.value);
  }
}

typeNameOnPrototype(StarFloat, "float");

/** Hash of a numeric value, equal for equal int and float. */
export function hashNumber(n: number): number {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 31) return n | 0;
  if (Number.isNaN(n)) return 0x7ff80000;
  // Mix the two 32-bit halves of the IEEE representation; integral floats beyond
  // 2^31 hash the same way as the equal int (see hashBigInt), via this path.
  HASH_F64[0] = n;
  return (Math.imul(HASH_U32[0] ?? 0, 0x9e3779b1) ^ (HASH_U32[1] ?? 0)) | 0;
}
const HASH_F64 = new Float64Array(1);
const HASH_U32 = new Uint32Array(HASH_F64.buffer);

export type BuiltinFn = (thread: Thread, args: Value[], kwargs: [string, Value][], self: Builtin) => Value;

/** A function or bound method implemented in TypeScript. */
export class Builtin implements Callable {
  readonly type = "builtin_function_or_method";
  constructor(
    readonly name: string,
    readonly fn: BuiltinFn,
    /** For bound methods: the receiver. */
    readonly receiver?: Value,
  ) {}
  call(thread: Thread, args: Value[], kwargs: [string, Value][]): Value {
    try {
      return this.fn(thread, args, kwargs, this);
    } catch (e) {
      throw addBuiltinFrame(e, this.name);
    }
  }
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    let h = 0;
    for (let i = 0; i < this.name.length; i++) h = (Math.imul(h, 31) + this.name.charCodeAt(i)) | 0;
    return h;
  }
  /** Binds this method to a receiver. */
  bindReceiver(receiver: Value): Builtin {
    return new Builtin(this.name, this.fn, receiver);
  }
}

export function isStarValue(v: Value): v is StarValue {
  return typeof v === "object";
}

export function isCallable(v: Value): v is Callable {
  return typeof v === "object" && typeof (v as Partial<Callable>).call === "function";
}

/** Calls any callable value; the single entry point builtins use to call back into Starlark. */
export function callValue(thread: Thread, fn: Value, args: Value[], kwargs: [string, Value][] = []): Value {
  if (!isCallable(fn)) {
    throw new StarEvalError(`invalid call of non-function (${typeName(fn)})`);
  }
  return fn.call(thread, args, kwargs);
}

export function typeName(v: Value): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    default:
      return v.type;
  }
}

/** Normalizes a bigint result to the contract's representation. */
export function normInt(b: bigint): number | bigint {
  return b >= MIN_SAFE_BIG && b <= MAX_SAFE_BIG ? Number(b) : b;
}
const MIN_SAFE_BIG = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

export function isInt(v: Value): v is number | bigint {
  return typeof v === "number" || typeof v === "bigint";
}
