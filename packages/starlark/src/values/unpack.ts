/**
 * Argument unpacking as go.starlark.net does it (starlark/unpack.go), with its exact texts:
 * UnpackArgs (named parameters, `name?` optional), UnpackPositionalArgs, and the per-type
 * conversions of unpackArgNoEscape and AsInt / AsInt32. Built-ins and methods use these so that
 * every "for parameter", "got N arguments" and "out of range" message reads as upstream's.
 */
import { nearest } from "../spell/spell.js";
import { StarBytes } from "./bytes.js";
import { StarEvalError } from "./errors.js";
import { quoteString } from "./repr.js";
import { tryIterate } from "./sequence.js";
import { isCallable, None, StarFloat, typeName, type Value } from "./value.js";

/** A conversion failure: go's error text without the "fn: for parameter p: " prefix. */
export class ArgError extends Error {}

/** Converts one argument (go's unpackArgNoEscape for one pointer type); throws ArgError. */
export type Conv<T> = (v: Value) => T;

export const asValue: Conv<Value> = (v) => v;

export const asString: Conv<string> = (v) => {
  if (typeof v !== "string") throw new ArgError(`got ${typeName(v)}, want string`);
  return v;
};

export const asBool: Conv<boolean> = (v) => {
  if (typeof v !== "boolean") throw new ArgError(`got ${typeName(v)}, want bool`);
  return v;
};

export const asCallable: Conv<Value> = (v) => {
  if (!isCallable(v)) throw new ArgError(`got ${typeName(v)}, want callable`);
  return v;
};

/** go's Iterable: lists, tuples, dicts, sets, ranges, the string/bytes iterables, host iterables (not strings, not bytes). */
export const asIterable: Conv<Value> = (v) => {
  if (!isIterable(v)) throw new ArgError(`got ${typeName(v)}, want iterable`);
  return v;
};

/** A *starlark.Float parameter: only floats (ints are not converted). */
export const asFloat: Conv<number> = (v) => {
  if (!(v instanceof StarFloat)) throw new ArgError(`got ${typeName(v)}, want float`);
  return v.value;
};

export function isIterable(v: Value): boolean {
  if (typeof v !== "object" || v instanceof StarFloat || v instanceof StarBytes) return false;
  const it = tryIterate(v);
  if (it === undefined) return false;
  it.done();
  return true;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A Go `int` parameter (64 bits): go's AsInt. Safe integers are numbers; values beyond 2^53
 * (still within int64) are bigints, so callers see the exact value.
 */
export const asInt64: Conv<number | bigint> = (v) => {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") {
    if (v < INT64_MIN || v > INT64_MAX) {
      throw new ArgError(`${v} out of range (want value in signed 64-bit range)`);
    }
    return v;
  }
  throw new ArgError(`got ${typeName(v)}, want int`);
};

/** A Go `byte` parameter (bytes() elements): go's AsInt into a uint8. */
export const asUint8: Conv<number> = (v) => {
  if (typeof v !== "number" && typeof v !== "bigint") throw new ArgError(`got ${typeName(v)}, want int`);
  if (v < 0 || v > 255) throw new ArgError(`${v} out of range (want value in unsigned 8-bit range)`);
  return Number(v);
};

/**
 * go's AsInt32: ints within the 32-bit range go.starlark.net stores unboxed (indices, chr);
 * the message has no bit count.
 */
export function asInt32(v: Value): number {
  if (typeof v === "number" && v >= -0x80000000 && v <= 0x7fffffff) return v;
  if (typeof v === "number" || typeof v === "bigint") throw new ArgError(`${v} out of range`);
  throw new ArgError(`got ${typeName(v)}, want int`);
}

/** go's checkPositionalArgs. */
export function checkPositionalArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  min: number,
  max: number,
): void {
  if (kwargs.length > 0) throw new StarEvalError(`${fnName}: unexpected keyword arguments`);
  if (args.length < min) {
    const atLeast = min < max ? "at least " : "";
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want ${atLeast}${min}`);
  }
  if (args.length > max) {
    const atMost = max > min ? "at most " : "";
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want ${atMost}${max}`);
  }
}

/**
 * go's UnpackPositionalArgs: between `min` and `convs.length` positional arguments, each
 * converted by its Conv; omitted ones are undefined. Errors name parameters by position.
 */
export function unpackPositionalArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  min: number,
  convs: readonly Conv<unknown>[],
): unknown[] {
  checkPositionalArgs(fnName, args, kwargs, min, convs.length);
  const out = new Array<unknown>(convs.length);
  for (let i = 0; i < args.length; i++) {
    try {
      out[i] = (convs[i] as Conv<unknown>)(args[i] as Value);
    } catch (e) {
      // Positional parameters are named by their 1-based position.
      if (e instanceof ArgError) throw new StarEvalError(`${fnName}: for parameter ${i + 1}: ${e.message}`);
      throw e;
    }
  }
  return out;
}

/** One parameter of UnpackArgs: `name`, `name?` (optional) or `name??` (optional, None = absent). */
export interface Param {
  readonly spec: string;
  readonly conv: Conv<unknown>;
}

/**
 * go's UnpackArgs: positional arguments bind to parameters in order, keywords by name.
 * As upstream: a parameter given by keyword is quoted in errors (`for parameter "sep"`), one
 * given by position is not; a misspelt keyword gets a "did you mean" hint.
 */
export function unpackArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  params: readonly Param[],
): unknown[] {
  const n = params.length;
  if (args.length > n) {
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want at most ${n}`);
  }
  const out = new Array<unknown>(n);
  const defined = new Array<boolean>(n).fill(false);
  for (let i = 0; i < args.length; i++) {
    defined[i] = true;
    const p = params[i] as Param;
    const arg = args[i] as Value;
    if (skipsNone(p.spec) && arg === None) continue;
    out[i] = convert(fnName, paramName(p.spec), p.conv, arg);
  }
  kwloop: for (const [name, arg] of kwargs) {
    for (let i = 0; i < n; i++) {
      const p = params[i] as Param;
      if (paramName(p.spec) !== name) continue;
      if (defined[i]) {
        throw new StarEvalError(`${fnName}: got multiple values for keyword argument ${quoteString(name)}`);
      }
      defined[i] = true;
      if (skipsNone(p.spec) && arg === None) continue kwloop;
      out[i] = convert(fnName, quoteString(name), p.conv, arg);
      continue kwloop;
    }
    let msg = `${fnName}: unexpected keyword argument ${quoteString(name)}`;
    // Upstream's candidate loop steps its index by 2 over the parameter count, so only the first
    // half of the parameters (rounded up) are offered as suggestions; kept for identical hints.
    const names: string[] = [];
    for (let i = 0; i < n; i += 2) names.push(paramName((params[i / 2] as Param).spec));
    const hint = nearest(name, names);
    if (hint !== undefined) msg += ` (did you mean ${hint}?)`;
    throw new StarEvalError(msg);
  }
  for (let i = 0; i < n; i++) {
    const spec = (params[i] as Param).spec;
    if (spec.endsWith("?")) break;
    if (i < args.length) continue;
    if (!defined[i]) throw new StarEvalError(`${fnName}: missing argument for ${spec}`);
  }
  return out;
}

function paramName(spec: string): string {
  if (spec.endsWith("??")) return spec.slice(0, -2);
  return spec.endsWith("?") ? spec.slice(0, -1) : spec;
}

function skipsNone(spec: string): boolean {
  return spec.endsWith("??");
}

function convert(fnName: string, label: string, conv: Conv<unknown>, v: Value): unknown {
  try {
    return conv(v);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`${fnName}: for parameter ${label}: ${e.message}`);
    throw e;
  }
}

/** A required parameter. */
export function param(spec: string, conv: Conv<unknown> = asValue): Param {
  return { spec, conv };
}
