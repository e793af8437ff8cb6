/**
 * Argument unpacking with go.starlark.net's error texts (UnpackArgs / UnpackPositionalArgs).
 */
import { StarEvalError } from "../values/errors.js";
import { isCallable, StarFloat, typeName, type Value } from "../values/value.js";

/**
 * Binds positional and keyword arguments to named parameters.
 * `params` are names; a trailing "?" marks an optional parameter.
 * Returns one slot per parameter, undefined for an omitted optional one.
 */
export function unpackArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  params: readonly string[],
): (Value | undefined)[] {
  const n = params.length;
  if (args.length > n) {
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want at most ${n}`);
  }
  const out = new Array<Value | undefined>(n);
  for (let i = 0; i < args.length; i++) out[i] = args[i];
  for (let k = 0; k < kwargs.length; k++) {
    const [name, value] = kwargs[k] as readonly [string, Value];
    let i = 0;
    while (i < n && paramName(params[i] as string) !== name) i++;
    if (i === n) throw new StarEvalError(`${fnName}: unexpected keyword argument "${name}"`);
    if (out[i] !== undefined) {
      throw new StarEvalError(`${fnName}: got multiple values for keyword argument "${name}"`);
    }
    out[i] = value;
  }
  for (let i = 0; i < n; i++) {
    const p = params[i] as string;
    if (out[i] === undefined && !p.endsWith("?")) {
      throw new StarEvalError(`${fnName}: missing argument for ${p}`);
    }
  }
  return out;
}

function paramName(p: string): string {
  return p.endsWith("?") ? p.slice(0, -1) : p;
}

/** Positional-only unpacking: between min and max arguments, no keywords. */
export function unpackPositional(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  min: number,
  max: number,
): readonly Value[] {
  if (kwargs.length > 0) throw new StarEvalError(`${fnName}: unexpected keyword arguments`);
  if (args.length < min) {
    const quant = min === max ? "" : "at least ";
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want ${quant}${min}`);
  }
  if (args.length > max) {
    const quant = min === max ? "" : "at most ";
    throw new StarEvalError(`${fnName}: got ${args.length} arguments, want ${quant}${max}`);
  }
  return args;
}

/** Describes a parameter in errors: its name, or its 1-based position for positional unpacking. */
export type ParamRef = string | number;

function paramError(fnName: string, param: ParamRef, got: Value, want: string): StarEvalError {
  return new StarEvalError(`${fnName}: for parameter ${param}: got ${typeName(got)}, want ${want}`);
}

export function wantString(fnName: string, param: ParamRef, v: Value): string {
  if (typeof v !== "string") throw paramError(fnName, param, v, "string");
  return v;
}

export function wantInt(fnName: string, param: ParamRef, v: Value): number | bigint {
  if (typeof v !== "number" && typeof v !== "bigint") throw paramError(fnName, param, v, "int");
  return v;
}

/** An int that must fit a JS safe integer (indices, counts); go reports "out of range". */
export function wantSmallInt(fnName: string, param: ParamRef, v: Value): number {
  if (typeof v === "bigint") {
    throw new StarEvalError(
      `${fnName}: for parameter ${param}: ${v} out of range (want value in signed 32-bit range)`,
    );
  }
  if (typeof v !== "number") throw paramError(fnName, param, v, "int");
  return v;
}

export function wantCallable(fnName: string, param: ParamRef, v: Value): Value {
  if (!isCallable(v)) throw paramError(fnName, param, v, "callable");
  return v;
}

export function wantFloatOrInt(fnName: string, param: ParamRef, v: Value): number {
  if (v instanceof StarFloat) return v.value;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  throw paramError(fnName, param, v, "float or int");
}
