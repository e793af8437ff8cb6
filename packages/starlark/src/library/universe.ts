/**
 * The universal built-in functions of go.starlark.net (the 2021 conformance snapshot),
 * with its argument handling and error texts.
 */
import { attrNames, tryGetAttr } from "../values/attrs.js";
import { StarBytes } from "../values/bytes.js";
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { floatToInt, intToFloat } from "../values/int.js";
import { StarList, StarTuple } from "../values/list.js";
import { updateDict } from "../values/methods/dict-methods.js";
import { compare, hashString, iterableToArray, iterableView, len as lenOf, truth } from "../values/ops.js";
import { StarRange } from "../values/range.js";
import { repr, str } from "../values/repr.js";
import { StarSet } from "../values/set.js";
import {
  bytesToByteString,
  decodeByteStringToUtf8,
  decodeRuneAt,
  runeCount,
  runeToByteString,
} from "../values/strings.js";
import { checkCollectionSize, checkStringLength, type Thread } from "../values/thread.js";
import {
  Builtin,
  type BuiltinFn,
  callValue,
  isCallable,
  None,
  StarFloat,
  typeName,
  type Value,
} from "../values/value.js";
import "../values/percent.js";
import "../values/methods/index.js";
import { parseFloatLiteral, parseIntLiteral } from "./parse-number.js";
import { stableSort } from "./sort.js";
import { unpackArgs, unpackPositional } from "./unpack.js";

/** Elements of an iterable argument without copying lists/tuples (read-only consumers that run no Starlark code). */
function iterableViewParam(
  fnName: string,
  param: string | number,
  v: Value,
  thread?: Thread,
): readonly Value[] {
  const elems = typeof v === "string" ? undefined : iterableView(v, thread);
  if (elems === undefined) {
    throw new StarEvalError(`${fnName}: for parameter ${param}: got ${typeName(v)}, want iterable`);
  }
  return elems;
}

/** Elements of an iterable argument; strings are not iterable in Starlark. */
function iterableParam(fnName: string, param: string | number, v: Value, thread?: Thread): Value[] {
  const elems = typeof v === "string" ? undefined : iterableToArray(v, thread);
  if (elems === undefined) {
    throw new StarEvalError(`${fnName}: for parameter ${param}: got ${typeName(v)}, want iterable`);
  }
  return elems;
}

/** The 32-bit range go.starlark.net imposes on range() arguments. */
function int32Param(fnName: string, param: number, v: Value): number {
  if (typeof v === "number" && v >= -(2 ** 31) && v < 2 ** 31) return v;
  if (typeof v === "number" || typeof v === "bigint") {
    throw new StarEvalError(
      `${fnName}: for parameter ${param}: ${v} out of range (want value in signed 32-bit range)`,
    );
  }
  throw new StarEvalError(`${fnName}: for parameter ${param}: got ${typeName(v)}, want int`);
}

/** abs(x) for int or float (current go.starlark.net). */
const abs: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("abs", args, kwargs, 1, 1);
  if (typeof x === "number") return Math.abs(x);
  if (typeof x === "bigint") return x < 0n ? -x : x;
  if (x instanceof StarFloat)
    return x.value < 0 || Object.is(x.value, -0) ? new StarFloat(Math.abs(x.value)) : x;
  throw new StarEvalError(`abs: got ${typeName(x as Value)}, want int or float`);
};

const all: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("all", args, kwargs, 1, 1);
  for (const e of iterableViewParam("all", 1, x as Value, t)) if (!truth(e)) return false;
  return true;
};

const any: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("any", args, kwargs, 1, 1);
  for (const e of iterableViewParam("any", 1, x as Value, t)) if (truth(e)) return true;
  return false;
};

const bool: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("bool", args, kwargs, 0, 1);
  return x === undefined ? false : truth(x);
};

/** bytes(x): from a string (its UTF-8 bytes), bytes, or an iterable of ints in 0..255. */
const bytes: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("bytes", args, kwargs, 1, 1);
  if (typeof x === "string") return new StarBytes(x);
  if (x instanceof StarBytes) return x;
  const elems = iterableToArray(x as Value, t);
  if (elems === undefined) {
    throw new StarEvalError(`bytes: got ${typeName(x as Value)}, want string, bytes, or iterable of ints`);
  }
  checkStringLength(t, elems.length);
  const codes: number[] = [];
  elems.forEach((e, i) => {
    if (typeof e !== "number" || e < 0 || e > 255) {
      const what =
        typeof e === "number" || typeof e === "bigint" ? `${e} out of range` : `got ${typeName(e)}, want int`;
      throw new StarEvalError(`bytes: at index ${i}, ${what}`);
    }
    codes.push(e);
  });
  return new StarBytes(bytesToByteString(Uint8Array.from(codes)));
};

const chr: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("chr", args, kwargs, 1, 1);
  if (typeof x !== "number" && typeof x !== "bigint") {
    throw new StarEvalError(`chr: got ${typeName(x as Value)}, want int`);
  }
  if (x < 0) throw new StarEvalError(`chr: Unicode code point ${x} out of range (<0)`);
  if (x > 0x10ffff) {
    throw new StarEvalError(
      `chr: Unicode code point U+${x.toString(16).toUpperCase()} out of range (>0x10FFFF)`,
    );
  }
  return runeToByteString(Number(x));
};

const dict: BuiltinFn = (t, args, kwargs) => {
  const d = new StarDict();
  updateDict("dict", d, args, kwargs, t);
  return d;
};

const dir: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("dir", args, kwargs, 1, 1);
  return new StarList(attrNames(x as Value));
};

const enumerate: BuiltinFn = (t, args, kwargs) => {
  const [it, startv] = unpackArgs("enumerate", args, kwargs, ["iterable", "start?"]);
  const elems = iterableViewParam("enumerate", "iterable", it as Value, t);
  let start = 0;
  if (startv !== undefined) {
    if (typeof startv !== "number") {
      throw new StarEvalError(`enumerate: for parameter start: got ${typeName(startv)}, want int`);
    }
    start = startv;
  }
  return new StarList(elems.map((e, i) => new StarTuple([start + i, e])));
};

const fail: BuiltinFn = (t, args, kwargs) => {
  const [sepv] = unpackArgs("fail", [], kwargs, ["sep?"]);
  let sep = " ";
  if (sepv !== undefined) {
    if (typeof sepv !== "string")
      throw new StarEvalError(`fail: for parameter sep: got ${typeName(sepv)}, want string`);
    sep = sepv;
  }
  const msg = `fail: ${args.map((a) => str(a, t)).join(sep)}`;
  throw new StarEvalError(msg);
};

const float: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("float", args, kwargs, 0, 1);
  if (x === undefined) return new StarFloat(0);
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
  throw new StarEvalError(`float: got ${typeName(x)}, want number or string`);
};

const getattr: BuiltinFn = (_t, args, kwargs) => {
  const [x, name, dflt] = unpackPositional("getattr", args, kwargs, 2, 3);
  if (typeof name !== "string") {
    throw new StarEvalError(`getattr: for parameter 2: got ${typeName(name as Value)}, want string`);
  }
  let v: Value | undefined;
  try {
    v = tryGetAttr(x as Value, name);
  } catch (e) {
    // go.starlark.net: any attribute error yields the default when one is given.
    if (dflt !== undefined && e instanceof StarEvalError && e.kind === "eval") return dflt;
    throw e;
  }
  if (v !== undefined) return v;
  if (dflt !== undefined) return dflt;
  throw new StarEvalError(`getattr: ${typeName(x as Value)} has no .${name} field or method`);
};

const hasattr: BuiltinFn = (_t, args, kwargs) => {
  const [x, name] = unpackPositional("hasattr", args, kwargs, 2, 2);
  if (typeof name !== "string") {
    throw new StarEvalError(`hasattr: for parameter 2: got ${typeName(name as Value)}, want string`);
  }
  try {
    return tryGetAttr(x as Value, name) !== undefined;
  } catch (e) {
    // go.starlark.net: on an attribute error, hasattr reports whether the name is listed.
    if (e instanceof StarEvalError && e.kind === "eval") return attrNames(x as Value).includes(name);
    throw e;
  }
};

const hash: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("hash", args, kwargs, 1, 1);
  if (typeof x !== "string") {
    throw new StarEvalError(`hash: for parameter 1: got ${typeName(x as Value)}, want string`);
  }
  return hashString(x);
};

/** Up to 15 decimal digits: always a safe integer, and what int() then returns is just its value. */
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
  const [x, basev] = unpackArgs("int", args, kwargs, ["x", "base?"]);
  if (typeof x === "string") {
    let base = 10;
    if (basev !== undefined) {
      if (typeof basev !== "number" || (basev !== 0 && (basev < 2 || basev > 36))) {
        throw new StarEvalError("int: base must be an integer >= 2 && <= 36");
      }
      base = basev;
    }
    const r = parseIntLiteral(x, base);
    if (r === undefined) throw new StarEvalError(`int: invalid literal with base ${base}: ${x}`);
    return r;
  }
  if (basev !== undefined) throw new StarEvalError("int: can't convert non-string with explicit base");
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (x instanceof StarFloat) return floatToInt(x.value);
  throw new StarEvalError(`int: got ${typeName(x as Value)}, want int`);
};

const len: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("len", args, kwargs, 1, 1);
  const n = lenOf(x as Value);
  if (n < 0) throw new StarEvalError(`len: value of type ${typeName(x as Value)} has no len`);
  return n;
};

const list: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("list", args, kwargs, 0, 1);
  return new StarList(x === undefined ? [] : iterableParam("list", 1, x, t));
};

function minmax(name: "min" | "max"): BuiltinFn {
  return (t, args, kwargs) => {
    if (args.length === 0) throw new StarEvalError(`${name} requires at least one positional argument`);
    const [keyFn] = unpackArgs(name, [], kwargs, ["key?"]);
    if (keyFn !== undefined && !isCallable(keyFn)) {
      throw new StarEvalError(`${name}: for parameter key: got ${typeName(keyFn)}, want callable`);
    }
    const iterable = args.length === 1 ? (args[0] as Value) : new StarTuple(args);
    const elems = typeof iterable === "string" ? undefined : iterableToArray(iterable, t);
    if (elems === undefined) throw new StarEvalError(`${name}: ${typeName(iterable)} value is not iterable`);
    if (elems.length === 0) throw new StarEvalError(`${name}: argument is an empty sequence`);
    const op = name === "max" ? ">" : "<";
    let best = elems[0] as Value;
    let bestKey = keyFn === undefined ? best : callValue(t, keyFn, [best]);
    for (let i = 1; i < elems.length; i++) {
      const x = elems[i] as Value;
      const k = keyFn === undefined ? x : callValue(t, keyFn, [x]);
      if (compare(op, k, bestKey)) {
        best = x;
        bestKey = k;
      }
    }
    return best;
  };
}

const ord: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("ord", args, kwargs, 1, 1);
  if (typeof x !== "string") throw new StarEvalError(`ord: got ${typeName(x as Value)}, want string`);
  const n = runeCount(x);
  if (n !== 1) throw new StarEvalError(`ord: string encodes ${n} Unicode code points, want 1`);
  return decodeRuneAt(x, 0).rune;
};

const print: BuiltinFn = (t, args, kwargs) => {
  const [sepv] = unpackArgs("print", [], kwargs, ["sep?"]);
  let sep = " ";
  if (sepv !== undefined) {
    if (typeof sepv !== "string")
      throw new StarEvalError(`print: for parameter sep: got ${typeName(sepv)}, want string`);
    sep = sepv;
  }
  t.print(t, decodeByteStringToUtf8(args.map((a) => str(a, t)).join(sep)));
  return None;
};

const range: BuiltinFn = (_t, args, kwargs) => {
  unpackPositional("range", args, kwargs, 1, 3);
  let start = 0;
  let stop: number;
  let step = 1;
  if (args.length === 1) stop = int32Param("range", 1, args[0] as Value);
  else {
    start = int32Param("range", 1, args[0] as Value);
    stop = int32Param("range", 2, args[1] as Value);
    if (args.length === 3) step = int32Param("range", 3, args[2] as Value);
  }
  if (step === 0) throw new StarEvalError("range: step argument must not be zero");
  return new StarRange(start, stop, step);
};

const reprFn: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("repr", args, kwargs, 1, 1);
  return repr(x as Value, t);
};

const reversed: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("reversed", args, kwargs, 1, 1);
  return new StarList(iterableParam("reversed", 1, x as Value, t).reverse());
};

const set: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("set", args, kwargs, 0, 1);
  const s = new StarSet();
  if (x !== undefined) for (const e of iterableViewParam("set", 1, x, t)) s.ht.set(e, e, t);
  return s;
};

const sorted: BuiltinFn = (t, args, kwargs) => {
  const [it, keyFn, rev] = unpackArgs("sorted", args, kwargs, ["iterable", "key?", "reverse?"]);
  const values = iterableParam("sorted", "iterable", it as Value, t);
  if (keyFn !== undefined && !isCallable(keyFn)) {
    throw new StarEvalError(`sorted: for parameter key: got ${typeName(keyFn)}, want callable`);
  }
  let reverse = false;
  if (rev !== undefined) {
    if (typeof rev !== "boolean")
      throw new StarEvalError(`sorted: for parameter reverse: got ${typeName(rev)}, want bool`);
    reverse = rev;
  }
  const keys = keyFn === undefined ? undefined : values.map((v) => callValue(t, keyFn, [v]));
  stableSort(values, keys, reverse);
  return new StarList(values);
};

const strFn: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("str", args, kwargs, 1, 1);
  return str(x as Value, t);
};

const tuple: BuiltinFn = (t, args, kwargs) => {
  const [x] = unpackPositional("tuple", args, kwargs, 0, 1);
  if (x instanceof StarTuple) return x;
  return new StarTuple(x === undefined ? [] : iterableParam("tuple", 1, x, t));
};

const type: BuiltinFn = (_t, args, kwargs) => {
  const [x] = unpackPositional("type", args, kwargs, 1, 1);
  return typeName(x as Value);
};

const zip: BuiltinFn = (t, args, kwargs) => {
  if (kwargs.length > 0) throw new StarEvalError("zip: unexpected keyword arguments");
  const seqs: (readonly Value[])[] = [];
  let n = Number.POSITIVE_INFINITY;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Value;
    const elems = typeof a === "string" ? undefined : iterableView(a, t);
    if (elems === undefined)
      throw new StarEvalError(`zip: argument #${i + 1} is not iterable: ${typeName(a)}`);
    seqs.push(elems);
    n = Math.min(n, elems.length);
  }
  if (seqs.length === 0) return new StarList([]);
  checkCollectionSize(t, n);
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
