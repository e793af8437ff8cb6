/**
 * The `math` module of go.starlark.net (lib/math): ceil, floor and round-trip helpers, the
 * trigonometric, hyperbolic and logarithmic functions of Go's math package, and the constants e
 * and pi. Arguments are ints or floats ("got string, want float or int"); results are floats
 * except for ceil and floor, which return ints.
 */
import { StarEvalError } from "../values/errors.js";
import { floatToInt } from "../values/int.js";
import { StarModule } from "../values/module.js";
import { ArgError, unpackPositionalArgs } from "../values/unpack.js";
import { Builtin, type BuiltinFn, StarFloat, typeName, type Value } from "../values/value.js";
import { gamma } from "./gamma.js";

/** go's floatOrInt: an int (converted, overflowing to ±Inf) or a float. */
function asFloatOrInt(v: Value): number {
  if (v instanceof StarFloat) return v.value;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  throw new ArgError(`got ${typeName(v)}, want float or int`);
}

function unary(name: string, fn: (x: number) => number): Builtin {
  return new Builtin(name, (_t, args, kwargs) => {
    const [x] = unpackPositionalArgs(name, args, kwargs, 1, [asFloatOrInt]) as [number];
    return new StarFloat(fn(x));
  });
}

function binary(name: string, fn: (x: number, y: number) => number): Builtin {
  return new Builtin(name, (_t, args, kwargs) => {
    const [x, y] = unpackPositionalArgs(name, args, kwargs, 2, [asFloatOrInt, asFloatOrInt]) as [
      number,
      number,
    ];
    return new StarFloat(fn(x, y));
  });
}

/** ceil and floor: ints stay as they are, floats are rounded and converted to int. */
function rounding(name: string, fn: (x: number) => number): Builtin {
  const impl: BuiltinFn = (_t, args, kwargs) => {
    const [x] = unpackPositionalArgs(name, args, kwargs, 1, [(v) => v]) as [Value];
    if (typeof x === "number" || typeof x === "bigint") return x;
    if (x instanceof StarFloat) return floatToInt(fn(x.value));
    throw new StarEvalError(`got ${typeName(x)}, want float or int`);
  };
  return new Builtin(name, impl);
}

/** Go's math.Round: half away from zero. */
function round(x: number): number {
  const t = Math.trunc(x);
  if (Math.abs(x - t) >= 0.5) return t + Math.sign(x);
  return t;
}

/** Go's math.Pow special cases where JavaScript's differ: 1**y and (-1)**±Inf are 1. */
function pow(x: number, y: number): number {
  if (x === 1) return 1;
  if (x === -1 && (y === Number.POSITIVE_INFINITY || y === Number.NEGATIVE_INFINITY)) return 1;
  return x ** y;
}

/** Go's math.Remainder (IEEE 754 remainder: x - n*y with n the nearest integer, ties to even). */
function remainder(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y) || !Number.isFinite(x) || y === 0) return Number.NaN;
  if (!Number.isFinite(y)) return x;
  const sign = x < 0;
  x = Math.abs(x);
  y = Math.abs(y);
  if (x === y) return sign ? -0 : 0;
  if (y <= Number.MAX_VALUE / 2) x %= y + y; // now x < 2y
  if (y < 2 ** -1021) {
    if (x + x > y) {
      x -= y;
      if (x + x >= y) x -= y;
    }
  } else {
    const half = 0.5 * y;
    if (x > half) {
      x -= y;
      if (x >= half) x -= y;
    }
  }
  return sign ? -x : x;
}

const BITS = new DataView(new ArrayBuffer(8));

/** The IEEE sign bit (set for -0 and negative NaNs too), as Go's math.Copysign reads it. */
function signBit(y: number): boolean {
  BITS.setFloat64(0, y);
  return (BITS.getUint8(0) & 0x80) !== 0;
}

const log: BuiltinFn = (_t, args, kwargs) => {
  const [x, base] = unpackPositionalArgs("log", args, kwargs, 1, [asFloatOrInt, asFloatOrInt]) as [
    number,
    number | undefined,
  ];
  if (base === undefined) return new StarFloat(Math.log(x));
  if (base === 1) throw new StarEvalError("division by zero");
  return new StarFloat(Math.log(x) / Math.log(base));
};

/** The `math` module value, offered to programs like `json`. */
export const mathModule = new StarModule(
  "math",
  new Map<string, Value>([
    ["ceil", rounding("ceil", Math.ceil)],
    ["copysign", binary("copysign", (x, y) => (signBit(y) ? -Math.abs(x) : Math.abs(x)))],
    ["fabs", unary("fabs", Math.abs)],
    ["floor", rounding("floor", Math.floor)],
    ["mod", binary("mod", (x, y) => x % y)],
    ["pow", binary("pow", pow)],
    ["remainder", binary("remainder", remainder)],
    ["round", unary("round", round)],
    ["exp", unary("exp", Math.exp)],
    ["sqrt", unary("sqrt", Math.sqrt)],
    ["acos", unary("acos", Math.acos)],
    ["asin", unary("asin", Math.asin)],
    ["atan", unary("atan", Math.atan)],
    ["atan2", binary("atan2", Math.atan2)],
    ["cos", unary("cos", Math.cos)],
    ["hypot", binary("hypot", Math.hypot)],
    ["sin", unary("sin", Math.sin)],
    ["tan", unary("tan", Math.tan)],
    ["degrees", unary("degrees", (x) => (360 * x) / (2 * Math.PI))],
    ["radians", unary("radians", (x) => (2 * Math.PI * x) / 360)],
    ["acosh", unary("acosh", Math.acosh)],
    ["asinh", unary("asinh", Math.asinh)],
    ["atanh", unary("atanh", Math.atanh)],
    ["cosh", unary("cosh", Math.cosh)],
    ["sinh", unary("sinh", Math.sinh)],
    ["tanh", unary("tanh", Math.tanh)],
    ["log", new Builtin("log", log)],
    ["gamma", unary("gamma", gamma)],
    ["e", new StarFloat(Math.E)],
    ["pi", new StarFloat(Math.PI)],
  ]),
);
