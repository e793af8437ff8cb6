/**
 * Argument unpacking with go.starlark.net's error texts (UnpackArgs / UnpackPositionalArgs).
 */
import { StarEvalError } from "../values/errors.js";
import { checkPositionalArgs, unpackArgs as goUnpackArgs, param } from "../values/unpack.js";
import { isCallable, StarFloat, typeName, type Value } from "../values/value.js";

/**
 * Binds positional and keyword arguments to named parameters, as go.starlark.net's UnpackArgs
 * (its texts for surplus, missing, repeated and unknown keyword arguments, with the "did you
 * mean" hint). `params` are names; a trailing "?" marks an optional parameter. Returns one slot
 * per parameter, undefined for an omitted optional one; type checks are the caller's (want*).
 */
export function unpackArgs(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  params: readonly string[],
): (Value | undefined)[] {
  return goUnpackArgs(
    fnName,
    args,
    kwargs,
    params.map((p) => param(p)),
  ) as (Value | undefined)[];
}

/** Positional-only arguments, between min and max of them (go's UnpackPositionalArgs counts). */
export function unpackPositional(
  fnName: string,
  args: readonly Value[],
  kwargs: readonly (readonly [string, Value])[],
  min: number,
  max: number,
): readonly Value[] {
  checkPositionalArgs(fnName, args, kwargs, min, max);
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
