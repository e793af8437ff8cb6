/**
 * time.duration: a signed 64-bit count of nanoseconds, as go.starlark.net's lib/time wraps Go's
 * time.Duration: Go's ParseDuration and String, its attributes, comparisons and arithmetic.
 */
import { StarEvalError } from "../values/errors.js";
import type { CompareOp } from "../values/value.js";
import { type BinaryOp, normInt, StarFloat, type StarValue, type Value } from "../values/value.js";
import { timeQuote } from "./quote.js";
import type { StarTime } from "./time-value.js";

export const NANOSECOND = 1n;
export const MICROSECOND = 1000n;
export const MILLISECOND = 1_000_000n;
export const SECOND = 1_000_000_000n;
export const MINUTE = 60n * SECOND;
export const HOUR = 60n * MINUTE;

const UNITS: Record<string, bigint> = {
  ns: NANOSECOND,
  us: MICROSECOND,
  "\xc2\xb5s": MICROSECOND, // U+00B5 micro sign
  "\xce\xbcs": MICROSECOND, // U+03BC Greek mu
  ms: MILLISECOND,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};

/** Wraps to a signed 64-bit value, as Go's int64 arithmetic does. */
export function int64(x: bigint): bigint {
  return BigInt.asIntN(64, x);
}

export class StarDuration implements StarValue {
  readonly type = "time.duration";
  constructor(readonly ns: bigint) {}
  freeze(): void {}
  truth(): boolean {
    return this.ns !== 0n;
  }
  hash(): number {
    return Number(BigInt.asIntN(32, this.ns ^ (this.ns >> 32n)));
  }
  repr(): string {
    return durationString(this.ns);
  }
  attrNames(): string[] {
    return ["hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];
  }
  getAttr(name: string): Value | undefined {
    const d = this.ns;
    const whole = (unit: bigint) => Number(d / unit) + Number(d % unit) / Number(unit);
    switch (name) {
      case "hours":
        return new StarFloat(whole(HOUR));
      case "minutes":
        return new StarFloat(whole(MINUTE));
      case "seconds":
        return new StarFloat(whole(SECOND));
      case "milliseconds":
        return normInt(d / MILLISECOND);
      case "microseconds":
        return normInt(d / MICROSECOND);
      case "nanoseconds":
        return normInt(d);
    }
    throw new StarEvalError(`unrecognized ${this.type} attribute ${timeQuote(name)}`);
  }
  compareSameType(op: CompareOp, other: StarValue): boolean {
    return compareBig(op, this.ns, (other as StarDuration).ns);
  }
  binary(op: BinaryOp, y: Value, side: "left" | "right"): Value | undefined {
    const x = this.ns;
    switch (op) {
      case "+":
        if (y instanceof StarDuration) return new StarDuration(int64(x + y.ns));
        if (isTime(y)) return y.add(x);
        break;
      case "-":
        if (y instanceof StarDuration) return new StarDuration(int64(x - y.ns));
        break;
      case "/":
        if (y instanceof StarDuration) {
          if (y.ns === 0n) throw new StarEvalError(`${this.type} division by zero`);
          return new StarFloat(Number(x) / Number(y.ns));
        }
        if (typeof y === "number" || typeof y === "bigint") {
          if (side === "right") throw new StarEvalError("unsupported operation");
          const i = int64Of(y);
          if (i === 0n) throw new StarEvalError(`${this.type} division by zero`);
          return new StarDuration(int64(x / i));
        }
        if (y instanceof StarFloat) {
          if (y.value === 0) throw new StarEvalError(`${this.type} division by zero`);
          return new StarDuration(floatToDuration(Number(x) / y.value));
        }
        break;
      case "//":
        if (y instanceof StarDuration) {
          if (y.ns === 0n) throw new StarEvalError(`${this.type} division by zero`);
          return normInt(int64(x / y.ns));
        }
        break;
      case "*":
        if (typeof y === "number" || typeof y === "bigint") return new StarDuration(int64(x * int64Of(y)));
        break;
    }
    return undefined;
  }
}

/** Go's Int64() check: the int as an int64, or the upstream error. */
function int64Of(y: number | bigint): bigint {
  const b = BigInt(y);
  if (BigInt.asIntN(64, b) !== b)
    throw new StarEvalError("int value out of range (want signed 64-bit value)");
  return b;
}

/** Go's float64-to-int64 conversion (truncation; out of range is unspecified in Go, saturated here). */
function floatToDuration(f: number): bigint {
  if (Number.isNaN(f)) return -(2n ** 63n);
  if (f >= 2 ** 63) return -(2n ** 63n);
  if (f < -(2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(f));
}

/** Breaks the import cycle with time-value.ts: StarTime registers itself. */
let isTime: (v: Value) => v is StarTime = (_v): _v is StarTime => false;
export function registerTimeType(test: (v: Value) => v is StarTime): void {
  isTime = test;
}

export function compareBig(op: CompareOp, x: bigint, y: bigint): boolean {
  switch (op) {
    case "==":
      return x === y;
    case "!=":
      return x !== y;
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
  }
}

/** Go's time.ParseDuration; throws Error with Go's text. The input is a byte string. */
export function parseDuration(orig: string): bigint {
  let s = orig;
  const invalid = () => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw invalid();
  const MAX = 1n << 63n;
  let d = 0n;
  while (s !== "") {
    const c = s[0] as string;
    if (!(c === "." || (c >= "0" && c <= "9"))) throw invalid();
    let i = 0;
    while (i < s.length && (s[i] as string) >= "0" && (s[i] as string) <= "9") i++;
    const pre = i > 0;
    let v = pre ? BigInt(s.slice(0, i)) : 0n;
    if (v > MAX) throw invalid(); // leadingInt overflow
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== "" && s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (j < s.length && (s[j] as string) >= "0" && (s[j] as string) <= "9") {
        if (!overflow) {
          // Go stops adding digits (but keeps consuming them) once f would overflow.
          const next = f * 10n + BigInt((s[j] as string).charCodeAt(0) - 48);
          if (f > (MAX - 1n) / 10n || next > MAX) overflow = true;
          else {
            f = next;
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let k = 0;
    while (k < s.length && s[k] !== "." && !((s[k] as string) >= "0" && (s[k] as string) <= "9")) k++;
    if (k === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS[u];
    if (unit === undefined)
      throw new Error(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > MAX / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX) throw invalid();
    }
    d += v;
    if (d > MAX) throw invalid();
  }
  if (neg) return -d;
  if (d > MAX - 1n) throw invalid();
  return d;
}

/** Go's Duration.String: "1h2m3.5s", "1.5ms", "0s". */
export function durationString(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u === 0n) return "0s";
    let prec: number;
    let unit: string;
    if (u < MICROSECOND) {
      prec = 0;
      unit = "ns";
    } else if (u < MILLISECOND) {
      prec = 3;
      unit = "\xc2\xb5s";
    } else {
      prec = 6;
      unit = "ms";
    }
    const [frac, rest] = fmtFrac(u, prec);
    out = `${rest}${frac}${unit}`;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Go's fmtFrac: ".12345" of v / 10**prec without trailing zeros ("" when zero), and v / 10**prec. */
function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let digits = "";
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) digits = `${digit}${digits}`;
    v /= 10n;
  }
  return [print ? `.${digits}` : "", v];
}
