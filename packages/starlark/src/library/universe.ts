/**
 * The universal built-in functions of go.starlark.net (starlark/library.go of the newest
 * version), with its argument handling and exact error texts: some built-ins unpack their
 * arguments by name (`int`, `sorted`, `fail`'s `sep`), most by position, and a few check them
 * by hand with their own wording (`float got 2 arguments, wants 1`, `str does not accept
 * keyword arguments`); each is written as upstream writes it.
 */
import { attrNames, tryGetAttr } from "../values/attrs.js";
import { StarBytes } from "../values/bytes.js";
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { floatToInt, intToFloat } from "../values/int.js";
import { StarList, StarTuple } from "../values/list.js";
import { nameErr } from "../values/methods/common.js";
import { updateDict } from "../values/methods/dict-methods.js";
import { compare, hashString, iterableToArray, iterableView, len as lenOf, truth } from "../values/ops.js";
import { makeRange } from "../values/range.js";
import { repr, str } from "../values/repr.js";
import { StarSet } from "../values/set.js";
import { decodeRuneAt, fnv32, runeCount, runeToByteString, utf8Transcode } from "../values/strings.js";
import { ALLOC, allocSlots, allocString, checkStringLength, type Thread } from "../values/thread.js";
import {
  ArgError,
  asBool,
  asCallable,
  asInt32,
  asInt64,
  asIterable,
  asString,
  asUint8,
  asValue,
  param,
  unpackArgs,
  unpackPositionalArgs,
} from "../values/unpack.js";
import {
  Builtin,
  type BuiltinFn,
  callValue,
  None,
  StarFloat,
  typeName,
  type Value,
} from "../values/value.js";
import "../values/percent.js";
import "../values/methods/index.js";
import { parseFloatLiteral, parseIntLiteral } from "./parse-number.js";
import { stableSort } from "./sort.js";

/** Go's `len(kwargs) > 0` check with the "X does not accept keyword arguments" wording. */
function noKeywords(fnName: string, kwargs: readonly (readonly [string, Value])[]): void {
  if (kwargs.length > 0) throw new StarEvalError(`${fnName} does not accept keyword arguments`);
}

const abs: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositionalArgs("abs", args, kwargs, 1, [asValue]) as [Value];
  if (typeof x === "number") return Math.abs(x);
  if (typeof x === "bigint") return x < 0n ? -x : x;
  if (x instanceof StarFloat)
    return x.value < 0 || Object.is(x.value, -0) ? new StarFloat(Math.abs(x.value)) : x;
  throw new StarEvalError(`got ${typeName(x)}, want int or float`);
};

const all: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("all", args, kwargs, 1, [asIterable]) as [Value];
  for (const e of iterableView(x, t) ?? []) if (!truth(e)) return false;
  return true;
};

const any: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("any", args, kwargs, 1, [asIterable]) as [Value];
  for (const e of iterableView(x, t) ?? []) if (truth(e)) return true;
  return false;
};

const bool: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositionalArgs("bool", args, kwargs, 0, [asValue]) as [Value | undefined];
  return x === undefined ? false : truth(x);
};

/** bytes(x): from a string (invalid UTF-8 replaced by U+FFFD), bytes, or an iterable of ints in 0..255. */
const bytes: BuiltinFn = (t, args, kwargs) => {
  noKeywords("bytes", kwargs);
  if (args.length !== 1) throw new StarEvalError(`bytes: got ${args.length} arguments, want exactly 1`);
  const x = args[0] as Value;
  if (x instanceof StarBytes) return x;
  if (typeof x === "string") return new StarBytes(utf8Transcode(x));
  const elems = typeof x === "object" ? iterableToArray(x, t) : undefined;
  if (elems === undefined) {
    throw new StarEvalError(`bytes: got ${typeName(x)}, want string, bytes, or iterable of ints`);
  }
  allocString(t, elems.length);
  let out = "";
  for (let i = 0; i < elems.length; i++) {
    try {
      out += String.fromCharCode(asUint8(elems[i] as Value));
    } catch (e) {
      if (e instanceof ArgError) throw new StarEvalError(`bytes: at index ${i}, ${e.message}`);
      throw e;
    }
  }
  return new StarBytes(out);
};

const chr: BuiltinFn = (_t, args, kwargs) => {
  noKeywords("chr", kwargs);
  if (args.length !== 1) throw new StarEvalError(`chr: got ${args.length} arguments, want 1`);
  let i: number;
  try {
    i = asInt32(args[0] as Value);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`chr: ${e.message}`);
    throw e;
  }
  if (i < 0) throw new StarEvalError(`chr: Unicode code point ${i} out of range (<0)`);
  if (i > 0x10ffff) {
    throw new StarEvalError(
      `chr: Unicode code point U+${i.toString(16).toUpperCase()} out of range (>0x10FFFF)`,
    );
  }
  return runeToByteString(i);
};

const dict: BuiltinFn = (t, args, kwargs) => {
  if (args.length > 1) throw new StarEvalError(`dict: got ${args.length} arguments, want at most 1`);
  const d = new StarDict();
  t.alloc(ALLOC.header);
  try {
    updateDict(d, args, kwargs, t);
  } catch (e) {
    throw nameErr("dict", e);
  }
  return d;
};

const dir: BuiltinFn = (_t, args, kwargs) => {
  noKeywords("dir", kwargs);
  if (args.length !== 1) throw new StarEvalError(`dir: got ${args.length} arguments, want 1`);
  return new StarList(attrNames(args[0] as Value));
};

const enumerate: BuiltinFn = (t, args, kwargs) => {
  const [it, startv] = unpackPositionalArgs("enumerate", args, kwargs, 1, [asIterable, asInt64]) as [
    Value,
    number | bigint | undefined,
  ];
  const elems = iterableView(it, t) ?? [];
  allocSlots(t, elems.length);
  t.alloc((ALLOC.header + 2 * ALLOC.slot) * elems.length);
  const start = startv ?? 0;
  if (typeof start === "number" && Number.isSafeInteger(start + elems.length)) {
    return new StarList(elems.map((e, i) => new StarTuple([start + i, e])));
  }
  const big = BigInt(start);
  return new StarList(elems.map((e, i) => new StarTuple([normBig(big + BigInt(i)), e])));
};

function normBig(b: bigint): number | bigint {
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
}

/** The text of print/fail arguments: strings as they are, anything else as repr. */
function joinArgs(args: readonly Value[], sep: string, thread: Thread, bytesRaw: boolean): string {
  let out = "";
  for (let i = 0; i < args.length; i++) {
    if (i > 0) out += sep;
    const a = args[i] as Value;
    out += bytesRaw && a instanceof StarBytes ? a.data : str(a, thread);
    if (out.length > 4096) checkStringLength(thread, out.length);
  }
  allocString(thread, out.length);
  return out;
}

const fail: BuiltinFn = (t, args, kwargs) => {
  const [sep] = unpackArgs("fail", [], kwargs, [param("sep?", asString)]) as [string | undefined];
  throw new StarEvalError(`fail: ${joinArgs(args, sep ?? " ", t, false)}`);
};

const float: BuiltinFn = (_t, args, kwargs) => {
  noKeywords("float", kwargs);
  if (args.length === 0) return new StarFloat(0);
  if (args.length !== 1) throw new StarEvalError(`float got ${args.length} arguments, wants 1`);
  const x = args[0] as Value;
  if (typeof x === "boolean") return new StarFloat(x ? 1 : 0);
  if (typeof x === "number" || typeof x === "bigint") return new StarFloat(intToFloat(x));
  if (x instanceof StarFloat) return x;
  if (typeof x === "string") {
    if (x === "") throw new StarEvalError("float: empty string");
    const r = parseFloatLiteral(x);
    if (r.ok) return new StarFloat(r.value);
    if (r.error === "too large") throw new StarEvalError("floating-point number too large");
    throw new StarEvalError(`invalid float literal: ${x}`);
  }
  throw new StarEvalError(`float got ${typeName(x)}, want number or string`);
};

const getattr: BuiltinFn = (_t, args, kwargs) => {
  const [x, name, dflt] = unpackPositionalArgs("getattr", args, kwargs, 2, [asValue, asString, asValue]) as [
    Value,
    string,
    Value | undefined,
  ];
  let v: Value | undefined;
  try {
    v = tryGetAttr(x, name);
  } catch (e) {
    // An attribute error (no such field, or one that failed to compute) yields the default.
    if (dflt !== undefined && e instanceof StarEvalError && e.kind === "eval") return dflt;
    throw nameErr("getattr", e);
  }
  if (v !== undefined) return v;
  if (dflt !== undefined) return dflt;
  throw new StarEvalError(`getattr: ${typeName(x)} has no .${name} field or method`);
};

const hasattr: BuiltinFn = (_t, args, kwargs) => {
  const [x, name] = unpackPositionalArgs("hasattr", args, kwargs, 2, [asValue, asString]) as [Value, string];
  try {
    return tryGetAttr(x, name) !== undefined;
  } catch (e) {
    // An error does not say whether the field exists: upstream then consults dir().
    if (e instanceof StarEvalError && e.kind === "eval") return attrNames(x).includes(name);
    throw e;
  }
};

const hash: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositionalArgs("hash", args, kwargs, 1, [asValue]) as [Value];
  if (typeof x === "string") return hashString(x);
  if (x instanceof StarBytes) return fnv32(x.data);
  throw new StarEvalError(`hash: got ${typeName(x)}, want string or bytes`);
};

/** 1 to 15 ASCII digits (exact as a JS number); a loop, cheaper than a regex on short strings. */
function isShortDecimal(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 15) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const int: BuiltinFn = (_t, args, kwargs) => {
  const only = args[0];
  if (args.length === 1 && kwargs.length === 0 && typeof only === "string" && isShortDecimal(only)) {
    return Number(only); // int("42"), int("007"): base 10, leading zeros allowed, as parseIntLiteral does
  }
  const [xv, basev] = unpackArgs("int", args, kwargs, [param("x"), param("base?")]) as [
    Value | undefined,
    Value | undefined,
  ];
  const x = xv ?? 0;
  if (typeof x === "string") {
    let base = 10;
    if (basev !== undefined) {
      try {
        base = asInt32(basev);
      } catch (e) {
        if (e instanceof ArgError) throw new StarEvalError(`int: for base, got ${typeName(basev)}, want int`);
        throw e;
      }
      if (base !== 0 && (base < 2 || base > 36)) {
        throw new StarEvalError("int: base must be an integer >= 2 && <= 36");
      }
    }
    const r = parseIntLiteral(x, base);
    if (r === undefined) throw new StarEvalError(`int: invalid literal with base ${base}: ${x}`);
    return r;
  }
  if (basev !== undefined) throw new StarEvalError("int: can't convert non-string with explicit base");
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (x instanceof StarFloat) {
    try {
      return floatToInt(x.value);
    } catch (e) {
      throw nameErr("int", e);
    }
  }
  throw new StarEvalError(`int: cannot convert ${typeName(x)} to int`);
};

const len: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositionalArgs("len", args, kwargs, 1, [asValue]) as [Value];
  const n = lenOf(x);
  if (n < 0) throw new StarEvalError(`len: value of type ${typeName(x)} has no len`);
  return n;
};

const list: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("list", args, kwargs, 0, [asIterable]) as [Value | undefined];
  return new StarList(x === undefined ? [] : (iterableToArray(x, t) ?? []));
};

function minmax(name: "min" | "max"): BuiltinFn {
  return (t, args, kwargs) => {
    if (args.length === 0) throw new StarEvalError(`${name} requires at least one positional argument`);
    const [keyFn] = unpackArgs(name, [], kwargs, [param("key?", asCallable)]) as [Value | undefined];
    const iterable = args.length === 1 ? (args[0] as Value) : new StarTuple(args);
    const elems = typeof iterable === "object" ? iterableToArray(iterable, t) : undefined;
    if (elems === undefined) throw new StarEvalError(`${name}: ${typeName(iterable)} value is not iterable`);
    if (elems.length === 0) throw new StarEvalError(`${name}: argument is an empty sequence`);
    const op = name === "max" ? ">" : "<";
    let best = elems[0] as Value;
    let bestKey = keyFn === undefined ? best : callValue(t, keyFn, [best]);
    for (let i = 1; i < elems.length; i++) {
      const x = elems[i] as Value;
      const k = keyFn === undefined ? x : callValue(t, keyFn, [x]);
      let greater: boolean;
      try {
        greater = compare(op, k, bestKey);
      } catch (e) {
        throw nameErr(name, e);
      }
      if (greater) {
        best = x;
        bestKey = k;
      }
    }
    return best;
  };
}

const ord: BuiltinFn = (_t, args, kwargs) => {
  noKeywords("ord", kwargs);
  if (args.length !== 1) throw new StarEvalError(`ord: got ${args.length} arguments, want 1`);
  const x = args[0] as Value;
  if (typeof x === "string") {
    const { rune, size } = x.length === 0 ? { rune: 0, size: 0 } : decodeRuneAt(x, 0);
    if (size === 0 || size !== x.length) {
      throw new StarEvalError(`ord: string encodes ${runeCount(x)} Unicode code points, want 1`);
    }
    return rune;
  }
  if (x instanceof StarBytes) {
    if (x.data.length !== 1) throw new StarEvalError(`ord: bytes has length ${x.data.length}, want 1`);
    return x.data.charCodeAt(0);
  }
  throw new StarEvalError(`ord: got ${typeName(x)}, want string or bytes`);
};

const print: BuiltinFn = (t, args, kwargs) => {
  const [sep] = unpackArgs("print", [], kwargs, [param("sep?", asString)]) as [string | undefined];
  t.emitPrint(joinArgs(args, sep ?? " ", t, true));
  return None;
};

const range: BuiltinFn = (_t, args, kwargs) => {
  const [a, b, c] = unpackPositionalArgs("range", args, kwargs, 1, [asInt64, asInt64, asInt64]) as (
    | number
    | bigint
    | undefined
  )[];
  const [start, stop] =
    args.length === 1 ? [0, a as number | bigint] : [a as number | bigint, b as number | bigint];
  const step = c ?? 1;
  if (step === 0 || step === 0n) throw new StarEvalError("range: step argument must not be zero");
  return makeRange(start, stop, step);
};

const reprFn: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("repr", args, kwargs, 1, [asValue]) as [Value];
  return repr(x, t);
};

const reversed: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("reversed", args, kwargs, 1, [asIterable]) as [Value];
  return new StarList((iterableToArray(x, t) ?? []).reverse());
};

const set: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("set", args, kwargs, 0, [asIterable]) as [Value | undefined];
  const s = new StarSet();
  t.alloc(ALLOC.header);
  if (x !== undefined) {
    try {
      for (const e of iterableView(x, t) ?? []) s.ht.set(e, e, t);
    } catch (e) {
      throw nameErr("set", e);
    }
  }
  return s;
};

const sorted: BuiltinFn = (t, args, kwargs) => {
  const [it, keyFn, reverse] = unpackArgs("sorted", args, kwargs, [
    param("iterable", asIterable),
    param("key?", asCallable),
    param("reverse?", asBool),
  ]) as [Value, Value | undefined, boolean | undefined];
  const values = iterableToArray(it, t) ?? [];
  const keys = keyFn === undefined ? undefined : values.map((v) => callValue(t, keyFn, [v]));
  stableSort(values, keys, reverse ?? false);
  return new StarList(values);
};

const strFn: BuiltinFn = (t, args, kwargs) => {
  noKeywords("str", kwargs);
  if (args.length !== 1) throw new StarEvalError(`str: got ${args.length} arguments, want exactly 1`);
  const x = args[0] as Value;
  if (x instanceof StarBytes) {
    allocString(t, x.data.length);
    return utf8Transcode(x.data);
  }
  return str(x, t);
};

const tuple: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositionalArgs("tuple", args, kwargs, 0, [asIterable]) as [Value | undefined];
  if (x instanceof StarTuple) return x;
  return new StarTuple(x === undefined ? [] : (iterableToArray(x, t) ?? []));
};

const type: BuiltinFn = (_t, args, kwargs) => {
  noKeywords("type", kwargs);
  if (args.length !== 1) throw new StarEvalError(`type: got ${args.length} arguments, want exactly 1`);
  return typeName(args[0] as Value);
};

const zip: BuiltinFn = (t, args, kwargs) => {
  noKeywords("zip", kwargs);
  const seqs: (readonly Value[])[] = [];
  let n = Number.POSITIVE_INFINITY;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Value;
    const elems = typeof a === "object" ? iterableView(a, t) : undefined;
    if (elems === undefined)
      throw new StarEvalError(`zip: argument #${i + 1} is not iterable: ${typeName(a)}`);
    seqs.push(elems);
    n = Math.min(n, elems.length);
  }
  if (seqs.length === 0) return new StarList([]);
  allocSlots(t, n);
  t.alloc((ALLOC.header + ALLOC.slot * seqs.length) * n);
  const out: Value[] = [];
  const k = seqs.length;
  for (let i = 0; i < n; i++) {
    const row = new Array<Value>(k);
    for (let j = 0; j < k; j++) row[j] = (seqs[j] as readonly Value[])[i] as Value;
    out.push(new StarTuple(row));
  }
  return new StarList(out);
};

const BUILTINS: Record<string, BuiltinFn> = {
  abs,
  all,
  any,
  bool,
  bytes,
  chr,
  dict,
  dir,
  enumerate,
  fail,
  float,
  getattr,
  hasattr,
  hash,
  int,
  len,
  list,
  max: minmax("max"),
  min: minmax("min"),
  ord,
  print,
  range,
  repr: reprFn,
  reversed,
  sorted,
  str: strFn,
  tuple,
  type,
  zip,
};

export interface UniverseDialect {
  /** Offer the `set` builtin (go.starlark.net's resolve.AllowSet). */
  set?: boolean;
}

/** The `set` builtin on its own, for hosts that assemble their own universe. */
export const setBuiltin = new Builtin("set", set);

/** The predeclared universe: None, True, False and the builtins (set only when allowed). */
export function universe(dialect: UniverseDialect = {}): Map<string, Value> {
  const u = new Map<string, Value>();
  u.set("None", None);
  u.set("True", true);
  u.set("False", false);
  for (const [name, fn] of Object.entries(BUILTINS)) u.set(name, new Builtin(name, fn));
  if (dialect.set) u.set("set", setBuiltin);
  return u;
}
