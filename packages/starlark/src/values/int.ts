/**
 * Arbitrary-precision int arithmetic on the number|bigint representation.
 * Every result is normalized: safe integers are numbers, the rest bigints.
 */
import { LimitError, StarEvalError } from "./errors.js";
import { normInt } from "./value.js";

export type Int = number | bigint;

export function toBig(x: Int): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}

export function intAdd(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const r = x + y;
    if (Number.isSafeInteger(r)) return r;
  }
  return normInt(toBig(x) + toBig(y));
}

export function intSub(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const r = x - y;
    if (Number.isSafeInteger(r)) return r;
  }
  return normInt(toBig(x) - toBig(y));
}

/**
 * Ints larger than this many bits are refused: repeated squaring would otherwise grow
 * them exponentially and exhaust memory and time (go.starlark.net has no bound).
 */
export const MAX_INT_BITS = 1 << 20;

function bitLength(x: bigint): number {
  return (x < 0n ? -x : x).toString(16).length * 4;
}

function checkIntBits(bits: number): void {
  if (bits > MAX_INT_BITS) {
    throw new LimitError("size", `int too large: result would exceed ${MAX_INT_BITS} bits`);
  }
}

export function intMul(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const r = x * y;
    if (Number.isSafeInteger(r)) return r || 0; // `|| 0` turns -0 into 0
  }
  const bx = toBig(x);
  const by = toBig(y);
  if (typeof x === "bigint" || typeof y === "bigint") checkIntBits(bitLength(bx) + bitLength(by));
  return normInt(bx * by);
}

export function intFloorDiv(x: Int, y: Int): Int {
  if (y === 0 || y === 0n) throw new StarEvalError("floored division by zero");
  if (typeof x === "number" && typeof y === "number") {
    const r = x % y;
    let q = (x - r) / y;
    if (r !== 0 && r < 0 !== y < 0) q -= 1;
    return q || 0;
  }
  const bx = toBig(x);
  const by = toBig(y);
  let q = bx / by;
  if (bx % by !== 0n && bx < 0n !== by < 0n) q -= 1n;
  return normInt(q);
}

export function intMod(x: Int, y: Int): Int {
  if (y === 0 || y === 0n) throw new StarEvalError("integer modulo by zero");
  if (typeof x === "number" && typeof y === "number") {
    let r = x % y;
    if (r !== 0 && r < 0 !== y < 0) r += y;
    return r || 0;
  }
  const by = toBig(y);
  let r = toBig(x) % by;
  if (r !== 0n && r < 0n !== by < 0n) r += by;
  return normInt(r);
}

function isInt32(x: Int): x is number {
  return typeof x === "number" && (x | 0) === x;
}

export function intAnd(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x & y;
  return normInt(toBig(x) & toBig(y));
}
export function intOr(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x | y;
  return normInt(toBig(x) | toBig(y));
}
export function intXor(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x ^ y;
  return normInt(toBig(x) ^ toBig(y));
}

/** go.starlark.net refuses shift counts of 512 or more. */
const MAX_SHIFT = 512;

function shiftCount(y: Int): number {
  if (y < 0) throw new StarEvalError(`negative shift count: ${y}`);
  if (y >= MAX_SHIFT) throw new StarEvalError(`shift count too large: ${y}`);
  return Number(y);
}

export function intShl(x: Int, y: Int): Int {
  const n = shiftCount(y);
  if (typeof x === "number") {
    const r = x * 2 ** n;
    if (Number.isSafeInteger(r)) return r;
  }
  const bx = toBig(x);
  if (typeof x === "bigint") checkIntBits(bitLength(bx) + n);
  return normInt(bx << BigInt(n));
}

export function intShr(x: Int, y: Int): Int {
  const n = shiftCount(y);
  if (typeof x === "number") {
    if (n >= 64) return x < 0 ? -1 : 0;
    return Math.floor(x / 2 ** n) || 0;
  }
  return normInt(x >> BigInt(n));
}

export function intNeg(x: Int): Int {
  if (typeof x === "number") return 0 - x;
  return normInt(-x);
}

export function intInvert(x: Int): Int {
  if (typeof x === "number") return isInt32(x) ? ~x : -x - 1;
  return normInt(-x - 1n);
}

export function intSign(x: Int): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

export function intCompare(x: Int, y: Int): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** int -> float, with go.starlark.net's overflow error. */
export function intToFloat(x: Int): number {
  if (typeof x === "number") return x;
  const f = Number(x);
  if (!Number.isFinite(f)) throw new StarEvalError("int too large to convert to float");
  return f;
}

/** float -> int (truncating), with go.starlark.net's errors for inf/nan. */
export function floatToInt(f: number): Int {
  if (Number.isNaN(f)) throw new StarEvalError("cannot convert float NaN to integer");
  if (!Number.isFinite(f)) throw new StarEvalError("cannot convert float infinity to integer");
  const t = Math.trunc(f);
  if (Number.isSafeInteger(t)) return t || 0;
  return BigInt(t);
}

/** Exact comparison of an int with a float (NaN is greater than everything). */
export function compareIntFloat(x: Int, f: number): number {
  if (Number.isNaN(f)) return -1;
  if (typeof x === "number") return x < f ? -1 : x > f ? 1 : 0;
  if (f === Number.POSITIVE_INFINITY) return -1;
  if (f === Number.NEGATIVE_INFINITY) return 1;
  const t = Math.trunc(f);
  const bt = BigInt(t);
  if (x < bt) return -1;
  if (x > bt) return 1;
  // x equals the integral part; the fraction decides.
  return f > t ? -1 : f < t ? 1 : 0;
}

/** Total order on floats used by Starlark: NaN is equal to itself and above +Inf. */
export function floatCompare(x: number, y: number): number {
  if (x > y) return 1;
  if (x < y) return -1;
  if (x === y) return 0;
  if (!Number.isNaN(x)) return -1; // y is NaN
  if (!Number.isNaN(y)) return 1; // x is NaN
  return 0;
}
