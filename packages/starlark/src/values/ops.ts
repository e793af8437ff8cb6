/**
 * The core operations on Starlark values with go.starlark.net's semantics and error texts.
 */
import { StarBytes } from "./bytes.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { valueHooks } from "./hooks.js";
import {
  compareIntFloat,
  floatCompare,
  type Int,
  intAdd,
  intAnd,
  intFloorDiv,
  intInvert,
  intMod,
  intMul,
  intNeg,
  intOr,
  intShl,
  intShr,
  intSub,
  intToFloat,
  intXor,
} from "./int.js";
import { ArrayIterator, registerTupleElementHash, StarList, StarTuple } from "./list.js";
import { StarRange } from "./range.js";
import { repr } from "./repr.js";
import { StarSet } from "./set.js";
import { decodeByteStringToUtf8 } from "./strings.js";
import { checkCollectionSize, checkStringLength, type Thread } from "./thread.js";
import {
  type BinaryOp,
  type CompareOp,
  hashNumber,
  None,
  StarFloat,
  type StarIterator,
  type StarValue,
  typeName,
  type UnaryOp,
  type Value,
} from "./value.js";

/** go.starlark.net's recursion bound for comparisons. */
const MAX_COMPARE_DEPTH = 10;

export function truth(v: Value): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
    case "bigint":
      return true; // normalized bigints are never zero
    default:
      return v.truth();
  }
}

// ---------------------------------------------------------------- hashing

/** Java's String.hashCode over the UTF-16 form of the (UTF-8 decoded) string, as go.starlark.net. */
export function hashString(s: string): number {
  const js = decodeByteStringToUtf8(s);
  let h = 0;
  for (let i = 0; i < js.length; i++) h = (Math.imul(h, 31) + js.charCodeAt(i)) | 0;
  return h;
}

export function hashValue(v: Value): number {
  switch (typeof v) {
    case "string":
      return hashString(v);
    case "number":
      return hashNumber(v);
    case "bigint":
      return hashNumber(Number(v));
    case "boolean":
      return v ? 1231 : 1237;
    default:
      return v.hash();
  }
}
registerTupleElementHash(hashValue);
valueHooks.hash = hashValue;

// ---------------------------------------------------------------- comparison

function sameType(x: Value, y: Value): boolean {
  const tx = typeof x;
  if (tx !== "object") return tx === typeof y || ((tx === "number" || tx === "bigint") && isIntPrim(y));
  return typeof y === "object" && (x as StarValue).type === (y as StarValue).type;
}

function isIntPrim(v: Value): v is Int {
  return typeof v === "number" || typeof v === "bigint";
}

function cmpResult(op: CompareOp, c: number): boolean {
  switch (op) {
    case "==":
      return c === 0;
    case "!=":
      return c !== 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
  }
}

function notImplemented(op: CompareOp, x: Value, y: Value): StarEvalError {
  return new StarEvalError(`${typeName(x)} ${op} ${typeName(y)} not implemented`);
}

export function equals(x: Value, y: Value): boolean {
  // No identity shortcut for objects: go.starlark.net reports cyclic values as too deep.
  if (x === y && typeof x !== "object") return true;
  return compareDepth("==", x, y, MAX_COMPARE_DEPTH);
}
valueHooks.equals = equals;

/** x op y for the comparison operators. */
export function compare(op: CompareOp, x: Value, y: Value): boolean {
  if (typeof x === "number" && typeof y === "number") return cmpResult(op, x < y ? -1 : x > y ? 1 : 0);
  if (typeof x === "string" && typeof y === "string") return cmpResult(op, x < y ? -1 : x > y ? 1 : 0);
  return compareDepth(op, x, y, MAX_COMPARE_DEPTH);
}

/**
 * Three-way comparison with `<` semantics, used by sorted(): one pass per pair
 * instead of two `<` comparisons. Throws "T < U not implemented" for unordered values.
 */
export function compareForSort(x: Value, y: Value): number {
  if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  return threeWay(x, y, MAX_COMPARE_DEPTH, false);
}

function threeWay(x: Value, y: Value, depth: number, nested: boolean): number {
  if (depth < 1) throw new StarEvalError("comparison exceeded maximum recursion depth");
  const tx = typeof x;
  if (tx === typeof y) {
    if (tx === "number" || tx === "string" || tx === "bigint") return x < y ? -1 : x > y ? 1 : 0;
    if (tx === "boolean") return Number(x) - Number(y);
  }
  if (x instanceof StarFloat) {
    if (y instanceof StarFloat) return floatCompare(x.value, y.value);
    if (isIntPrim(y)) return -compareIntFloat(y, x.value);
  } else if (isIntPrim(x)) {
    if (isIntPrim(y)) return x < y ? -1 : x > y ? 1 : 0;
    if (y instanceof StarFloat) return compareIntFloat(x, y.value);
  } else if (
    (x instanceof StarTuple && y instanceof StarTuple) ||
    (x instanceof StarList && y instanceof StarList)
  ) {
    const a = x.elems;
    const b = (y as StarTuple | StarList).elems;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = threeWay(a[i] as Value, b[i] as Value, depth - 1, true);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  // Everything else as go does it: inside a sequence, equal elements (even of
  // unordered types, such as two equal dicts) are skipped before ordering is asked.
  if (nested && compareDepth("==", x, y, depth)) return 0;
  if (compareDepth("<", x, y, depth)) return -1;
  if (compareDepth("<", y, x, depth)) return 1;
  return 0;
}

export function compareDepth(op: CompareOp, x: Value, y: Value, depth: number): boolean {
  if (depth < 1) throw new StarEvalError("comparison exceeded maximum recursion depth");
  if (sameType(x, y)) {
    switch (typeof x) {
      case "number":
      case "bigint":
        return cmpResult(op, x < (y as Int) ? -1 : x > (y as Int) ? 1 : 0);
      case "string":
        return cmpResult(op, x < (y as string) ? -1 : x > (y as string) ? 1 : 0);
      case "boolean":
        return cmpResult(op, Number(x) - Number(y as boolean));
    }
    if (x instanceof StarFloat) return cmpResult(op, floatCompare(x.value, (y as StarFloat).value));
    if (x instanceof StarList || x instanceof StarTuple) {
      return compareSequences(op, x.elems, (y as StarList | StarTuple).elems, depth);
    }
    if (x instanceof StarDict) return compareDicts(op, x, y as StarDict, depth);
    if (x instanceof StarSet) return compareSets(op, x, y as StarSet);
    if (x instanceof StarRange) return compareRanges(op, x, y as StarRange);
    if (x instanceof StarBytes) {
      const a = x.data;
      const b = (y as StarBytes).data;
      return cmpResult(op, a < b ? -1 : a > b ? 1 : 0);
    }
    const xs = x as StarValue;
    if (typeof xs.compareSameType === "function") return xs.compareSameType(op, y as StarValue, depth);
    if (op === "==") return x === y;
    if (op === "!=") return x !== y;
    throw notImplemented(op, x, y);
  }
  // int/float mixed comparisons are exact.
  if (isIntPrim(x) && y instanceof StarFloat) return cmpResult(op, compareIntFloat(x, y.value));
  if (x instanceof StarFloat && isIntPrim(y)) return cmpResult(op, -compareIntFloat(y, x.value));
  if (op === "==") return false;
  if (op === "!=") return true;
  throw notImplemented(op, x, y);
}

function compareSequences(op: CompareOp, a: readonly Value[], b: readonly Value[], depth: number): boolean {
  if (op === "==" || op === "!=") {
    if (a.length !== b.length) return op === "!=";
  }
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ax = a[i] as Value;
    const bx = b[i] as Value;
    if (ax === bx && !(ax instanceof StarFloat) && typeof ax !== "object") continue;
    if (!compareDepth("==", ax, bx, depth - 1)) {
      if (op === "==") return false;
      if (op === "!=") return true;
      return compareDepth(op, ax, bx, depth - 1);
    }
  }
  return cmpResult(op, a.length - b.length);
}

function compareDicts(op: CompareOp, x: StarDict, y: StarDict, depth: number): boolean {
  if (op !== "==" && op !== "!=") throw notImplemented(op, x, y);
  let eq = x.ht.size === y.ht.size;
  if (eq) {
    for (const [k, v] of x.ht.entries()) {
      const w = y.ht.get(k);
      if (w === undefined || !compareDepth("==", v, w, depth - 1)) {
        eq = false;
        break;
      }
    }
  }
  return op === "==" ? eq : !eq;
}

function compareSets(op: CompareOp, x: StarSet, y: StarSet): boolean {
  const subset = (a: StarSet, b: StarSet) => {
    for (const e of a.elems()) if (!b.has(e)) return false;
    return true;
  };
  switch (op) {
    case "==":
      return x.len() === y.len() && subset(x, y);
    case "!=":
      return !(x.len() === y.len() && subset(x, y));
    default:
      throw notImplemented(op, x, y);
  }
}

function compareRanges(op: CompareOp, x: StarRange, y: StarRange): boolean {
  if (op !== "==" && op !== "!=") throw notImplemented(op, x, y);
  let eq: boolean;
  if (x.length !== y.length) eq = false;
  else if (x.length === 0) eq = true;
  else eq = x.start === y.start && (x.length === 1 || x.step === y.step);
  return op === "==" ? eq : !eq;
}

// ---------------------------------------------------------------- arithmetic

function unknownBinary(op: BinaryOp, x: Value, y: Value): StarEvalError {
  return new StarEvalError(`unknown binary op: ${typeName(x)} ${op} ${typeName(y)}`);
}

/** Python-style float floor modulo. */
function floatMod(x: number, y: number): number {
  if (y === 0) throw new StarEvalError("floating-point modulo by zero");
  let r = x % y;
  if (r !== 0 && r < 0 !== y < 0) r += y;
  return r;
}

function floatBinary(op: BinaryOp, x: number, y: number): Value | undefined {
  switch (op) {
    case "+":
      return new StarFloat(x + y);
    case "-":
      return new StarFloat(x - y);
    case "*":
      return new StarFloat(x * y);
    case "/":
      if (y === 0) throw new StarEvalError("floating-point division by zero");
      return new StarFloat(x / y);
    case "//":
      if (y === 0) throw new StarEvalError("floored division by zero");
      return new StarFloat(Math.floor(x / y));
    case "%":
      return new StarFloat(floatMod(x, y));
  }
  return undefined;
}

function intBinary(op: BinaryOp, x: Int, y: Int): Value | undefined {
  switch (op) {
    case "+":
      return intAdd(x, y);
    case "-":
      return intSub(x, y);
    case "*":
      return intMul(x, y);
    case "/": {
      if (y === 0 || y === 0n) throw new StarEvalError("floating-point division by zero");
      if (typeof x === "number" && typeof y === "number") return new StarFloat(x / y);
      return new StarFloat(bigDivToFloat(x, y));
    }
    case "//":
      return intFloorDiv(x, y);
    case "%":
      return intMod(x, y);
    case "&":
      return intAnd(x, y);
    case "|":
      return intOr(x, y);
    case "^":
      return intXor(x, y);
    case "<<":
      return intShl(x, y);
    case ">>":
      return intShr(x, y);
  }
  return undefined;
}

/** x / y for big ints: exact when both convert, otherwise via scaled integer division. */
function bigDivToFloat(x: Int, y: Int): number {
  const fx = Number(x);
  const fy = Number(y);
  if (Number.isFinite(fx) && Number.isFinite(fy) && Math.abs(fx) < 2 ** 53 && Math.abs(fy) < 2 ** 53) {
    return fx / fy;
  }
  return intToFloat(x) / intToFloat(y);
}

/** Maximum repetition count go.starlark.net accepts before the size check. */
function repeatCount(
  n: Int,
  kind: string,
  len: number,
  thread: Thread | undefined,
  isString: boolean,
): number {
  if (typeof n === "bigint" || n >= 2 ** 31) throw new StarEvalError(`repeat count ${n} too large`);
  if (n <= 0) return 0;
  const total = len * n;
  if (total >= 2 ** 31) {
    throw new StarEvalError(`excessive repeat (${len} * ${n} elements)`);
  }
  if (isString) checkStringLength(thread, total);
  else checkCollectionSize(thread, total);
  void kind;
  return n;
}

function repeatArray(elems: readonly Value[], n: Int, thread: Thread | undefined): Value[] {
  const count = repeatCount(n, "list", elems.length, thread, false);
  const out: Value[] = [];
  for (let i = 0; i < count; i++) for (const e of elems) out.push(e);
  return out;
}

function repeatString(s: string, n: Int, thread: Thread | undefined): string {
  const count = repeatCount(n, "string", s.length, thread, true);
  return count === 0 ? "" : s.repeat(count);
}

/** x op y for the binary operators (including `in` / `not in`). */
export function binary(op: BinaryOp, x: Value, y: Value, thread?: Thread): Value {
  if (typeof x === "number" && typeof y === "number") {
    switch (op) {
      case "+": {
        const r = x + y;
        if (Number.isSafeInteger(r)) return r;
        break;
      }
      case "-": {
        const r = x - y;
        if (Number.isSafeInteger(r)) return r;
        break;
      }
    }
    const r = intBinary(op, x, y);
    if (r !== undefined) return r;
  }
  if (op === "in") return inOperator(x, y);
  if (op === "not in") return !inOperator(x, y);
  if (typeof x === "string") {
    if (op === "+" && typeof y === "string") {
      checkStringLength(thread, x.length + y.length);
      return x + y;
    }
    if (op === "*" && isIntPrim(y)) return repeatString(x, y, thread);
    if (op === "%") return percentFormatHook(x, y, thread);
    throw unknownBinary(op, x, y);
  }
  if (isIntPrim(x)) {
    if (isIntPrim(y)) {
      const r = intBinary(op, x, y);
      if (r !== undefined) return r;
    } else if (y instanceof StarFloat) {
      const r = floatBinary(op, intToFloat(x), y.value);
      if (r !== undefined) return r;
    } else if (op === "*") {
      if (typeof y === "string") return repeatString(y, x, thread);
      if (y instanceof StarList) return new StarList(repeatArray(y.elems, x, thread));
      if (y instanceof StarTuple) return new StarTuple(repeatArray(y.elems, x, thread));
      if (y instanceof StarBytes) return new StarBytes(repeatString(y.data, x, thread));
    }
  } else if (x instanceof StarFloat) {
    const fy = y instanceof StarFloat ? y.value : isIntPrim(y) ? intToFloat(y) : undefined;
    if (fy !== undefined) {
      const r = floatBinary(op, x.value, fy);
      if (r !== undefined) return r;
    }
  } else if (x instanceof StarList) {
    if (op === "+" && y instanceof StarList) {
      checkCollectionSize(thread, x.elems.length + y.elems.length);
      return new StarList(x.elems.concat(y.elems));
    }
    if (op === "*" && isIntPrim(y)) return new StarList(repeatArray(x.elems, y, thread));
  } else if (x instanceof StarTuple) {
    if (op === "+" && y instanceof StarTuple) {
      checkCollectionSize(thread, x.elems.length + y.elems.length);
      return new StarTuple(x.elems.concat(y.elems));
    }
    if (op === "*" && isIntPrim(y)) return new StarTuple(repeatArray(x.elems, y, thread));
  } else if (x instanceof StarSet) {
    if (y instanceof StarSet) {
      const r = setBinary(op, x, y, thread);
      if (r !== undefined) return r;
    }
  } else if (x instanceof StarDict) {
    // Dict union (current go.starlark.net): a new dict, right operand wins.
    if (op === "|" && y instanceof StarDict) {
      const out = new StarDict();
      for (const [k, v] of x.ht.entries()) out.setKey(k, v, thread);
      for (const [k, v] of y.ht.entries()) out.setKey(k, v, thread);
      return out;
    }
  } else if (x instanceof StarBytes) {
    if (op === "+" && y instanceof StarBytes) {
      checkStringLength(thread, x.data.length + y.data.length);
      return new StarBytes(x.data + y.data);
    }
    if (op === "*" && isIntPrim(y)) return new StarBytes(repeatString(x.data, y, thread));
  }
  // Host types: left operand first, then right.
  if (typeof x === "object" && typeof (x as StarValue).binary === "function") {
    const r = (x as StarValue).binary?.(op, y, "left");
    if (r !== undefined) return r;
  }
  if (typeof y === "object" && !(y instanceof StarFloat) && typeof y.binary === "function") {
    const r = y.binary(op, x, "right");
    if (r !== undefined) return r;
  }
  throw unknownBinary(op, x, y);
}

function setBinary(op: BinaryOp, x: StarSet, y: StarSet, thread: Thread | undefined): Value | undefined {
  switch (op) {
    case "|": {
      checkCollectionSize(thread, x.len() + y.len());
      const out = new StarSet(x.elems());
      for (const e of y.elems()) out.add(e);
      return out;
    }
    case "&": {
      const out = new StarSet();
      for (const e of x.elems()) if (y.has(e)) out.add(e);
      return out;
    }
    case "^": {
      const out = new StarSet();
      for (const e of x.elems()) if (!y.has(e)) out.add(e);
      for (const e of y.elems()) if (!x.has(e)) out.add(e);
      return out;
    }
    case "-": {
      const out = new StarSet();
      for (const e of x.elems()) if (!y.has(e)) out.add(e);
      return out;
    }
  }
  return undefined;
}

/** percentFormat is defined in percent.ts; bound here to keep this module acyclic. */
let percentFormatHook: (format: string, arg: Value, thread?: Thread) => string = () => {
  throw new Error("percent.ts not loaded");
};
export function registerPercentFormat(fn: (format: string, arg: Value, thread?: Thread) => string): void {
  percentFormatHook = fn;
}

/** `x in y`. */
export function inOperator(x: Value, y: Value): boolean {
  if (typeof y === "string") {
    if (typeof x !== "string") {
      throw new StarEvalError(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    }
    return y.includes(x);
  }
  if (y instanceof StarDict) {
    // go.starlark.net ignores lookup errors here: `[] in {}` is simply False.
    try {
      return y.ht.get(x) !== undefined;
    } catch (e) {
      if (e instanceof StarEvalError) return false;
      throw e;
    }
  }
  if (y instanceof StarList || y instanceof StarTuple) {
    for (const e of y.elems) if (e === x || equals(e, x)) return true;
    return false;
  }
  if (y instanceof StarSet) return y.has(x);
  if (y instanceof StarRange) {
    if (!isIntPrim(x)) {
      if (x instanceof StarFloat) {
        if (!Number.isInteger(x.value)) return false;
        return rangeContains(y, x.value);
      }
      throw new StarEvalError(`'in <range>' requires integer as left operand, not ${typeName(x)}`);
    }
    return rangeContains(y, Number(x));
  }
  if (y instanceof StarBytes) {
    if (x instanceof StarBytes) return y.data.includes(x.data);
    if (typeof x === "number") {
      if (x < 0 || x > 255) throw new StarEvalError(`int in bytes: ${x} out of range`);
      return y.data.includes(String.fromCharCode(x));
    }
    throw new StarEvalError(`'in bytes' requires bytes or int as left operand, not ${typeName(x)}`);
  }
  if (typeof y === "object" && typeof (y as StarValue).binary === "function") {
    const r = (y as StarValue).binary?.("in", x, "right");
    if (r !== undefined) return truth(r);
  }
  throw unknownBinary("in", x, y);
}

function rangeContains(r: StarRange, n: number): boolean {
  if (r.step > 0 ? !(n >= r.start && n < r.stop) : !(n <= r.start && n > r.stop)) return false;
  return (n - r.start) % r.step === 0;
}

/** Unary operators -x, +x, ~x, not x. */
export function unary(op: UnaryOp, x: Value): Value {
  if (op === "not") return !truth(x);
  if (isIntPrim(x)) {
    if (op === "-") return intNeg(x);
    if (op === "+") return x;
    if (op === "~") return intInvert(x);
  } else if (x instanceof StarFloat) {
    if (op === "-") return new StarFloat(-x.value);
    if (op === "+") return x;
  } else if (typeof x === "object" && typeof x.unary === "function") {
    const r = x.unary(op);
    if (r !== undefined) return r;
  }
  throw new StarEvalError(`unknown unary op: ${op}${typeName(x)}`);
}

// ---------------------------------------------------------------- sequences

/** len(x), or -1 when x has no length. */
export function len(x: Value): number {
  if (typeof x === "string") return x.length;
  if (typeof x !== "object") return -1;
  if (x instanceof StarList || x instanceof StarTuple) return x.elems.length;
  if (typeof x.len === "function") return x.len();
  return -1;
}

/** An iterator over x, or undefined when x is not iterable. Call done() when finished. */
export function tryIterate(x: Value): StarIterator | undefined {
  if (typeof x !== "object" || x instanceof StarFloat || x instanceof StarBytes) return undefined;
  if (x instanceof StarTuple) return new ArrayIterator(x.elems);
  if (typeof x.iterate === "function") return x.iterate();
  return undefined;
}

/** An iterator over x; throws "T value is not iterable" (the for-loop error). */
export function iterate(x: Value): StarIterator {
  const it = tryIterate(x);
  if (it === undefined) throw new StarEvalError(`${typeName(x)} value is not iterable`);
  return it;
}

/**
 * The elements of an iterable for a consumer that runs no Starlark code while reading
 * them: lists and tuples are returned without copying (do not mutate or keep the array).
 */
export function iterableView(x: Value, thread?: Thread): readonly Value[] | undefined {
  if (x instanceof StarList || x instanceof StarTuple) return x.elems;
  return iterableToArray(x, thread);
}

/** All elements of an iterable (undefined when not iterable), checked against the size limit. */
export function iterableToArray(x: Value, thread?: Thread): Value[] | undefined {
  if (x instanceof StarList || x instanceof StarTuple) return x.elems.slice();
  if (x instanceof StarDict || x instanceof StarSet) return x.ht.keys();
  if (x instanceof StarRange) {
    checkCollectionSize(thread, x.length);
    const out = new Array<Value>(x.length);
    for (let i = 0; i < x.length; i++) out[i] = x.at(i);
    return out;
  }
  const it = tryIterate(x);
  if (it === undefined) return undefined;
  const out: Value[] = [];
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      out.push(v);
      if ((out.length & 0xffff) === 0) checkCollectionSize(thread, out.length);
    }
  } finally {
    it.done();
  }
  return out;
}

function outOfRange(kind: string, i: Int, n: number): StarEvalError {
  if (n === 0) return new StarEvalError(`index ${i} out of range: empty ${kind}`);
  if (kind === "") return new StarEvalError(`index ${i} out of range [${-n}:${n - 1}]`);
  return new StarEvalError(`${kind} index ${i} out of range [${-n}:${n - 1}]`);
}

/** Resolves a possibly negative index against length n (go's "asIndex" + bounds check). */
function indexOf(kind: string, key: Value, n: number): number {
  if (typeof key !== "number") {
    if (typeof key === "bigint") throw outOfRange(kind, key, n);
    throw new StarEvalError(`${kind} index: got ${typeName(key)}, want int`);
  }
  const i = key < 0 ? key + n : key;
  if (i < 0 || i >= n) throw outOfRange(kind, key, n);
  return i;
}

/** x[key]. */
export function getIndex(x: Value, key: Value): Value {
  if (x instanceof StarList) return x.elems[indexOf("list", key, x.elems.length)] as Value;
  if (x instanceof StarTuple) return x.elems[indexOf("tuple", key, x.elems.length)] as Value;
  if (x instanceof StarDict) {
    const v = x.ht.get(key);
    if (v === undefined) throw new StarEvalError(`key ${repr(key)} not in dict`);
    return v;
  }
  if (typeof x === "string") {
    const i = indexOf("string", key, x.length);
    return x[i] as string;
  }
  if (x instanceof StarRange) return x.at(indexOf("range", key, x.length));
  if (x instanceof StarBytes) return x.data.charCodeAt(indexOf("bytes", key, x.data.length));
  if (typeof x === "object" && !(x instanceof StarFloat) && typeof x.getIndex === "function") {
    return x.getIndex(key);
  }
  throw new StarEvalError(`unhandled index operation ${typeName(x)}[${typeName(key)}]`);
}

/** x[key] = v (the thread, when given, bounds dict growth). */
export function setIndex(x: Value, key: Value, v: Value, thread?: Thread): void {
  if (x instanceof StarList) {
    const i = indexOf("list", key, x.elems.length);
    if (x.frozen || x.itercount > 0) x.checkMutable("assign to element of");
    x.elems[i] = v;
    return;
  }
  if (x instanceof StarDict) {
    x.ht.set(key, v, thread);
    return;
  }
  if (typeof x === "object" && !(x instanceof StarFloat) && typeof x.setIndex === "function") {
    x.setIndex(key, v);
    return;
  }
  throw new StarEvalError(`${typeName(x)} value does not support item assignment`);
}

function sliceIndex(what: string, v: Value): number | undefined {
  if (v === None) return undefined;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return v < 0n ? -(2 ** 53) : 2 ** 53;
  throw new StarEvalError(`invalid ${what}: got ${typeName(v)}, want int`);
}

/** The (start, end, step) index triple of a slice over length n, Python rules. */
export function sliceIndices(n: number, lo: Value, hi: Value, stepv: Value): [number, number, number] {
  let step = sliceIndex("slice step", stepv) ?? 1;
  if (step === 0) throw new StarEvalError("zero is not a valid slice step");
  if (stepv === None) step = 1;
  const s = sliceIndex("start index", lo);
  const e = sliceIndex("end index", hi);
  let start: number;
  let end: number;
  if (step > 0) {
    start = s === undefined ? 0 : clamp(s < 0 ? s + n : s, 0, n);
    end = e === undefined ? n : clamp(e < 0 ? e + n : e, 0, n);
  } else {
    start = s === undefined ? n - 1 : clamp(s < 0 ? s + n : s, -1, n - 1);
    end = e === undefined ? -1 : clamp(e < 0 ? e + n : e, -1, n - 1);
  }
  return [start, end, step];
}

function clamp(i: number, lo: number, hi: number): number {
  return i < lo ? lo : Math.min(i, hi);
}

function sliceArray<T>(a: readonly T[], start: number, end: number, step: number): T[] {
  if (step === 1) return start < end ? a.slice(start, end) : [];
  const out: T[] = [];
  if (step > 0) for (let i = start; i < end; i += step) out.push(a[i] as T);
  else for (let i = start; i > end; i += step) out.push(a[i] as T);
  return out;
}

function sliceString(s: string, start: number, end: number, step: number): string {
  if (step === 1) return start < end ? s.slice(start, end) : "";
  let out = "";
  if (step > 0) for (let i = start; i < end; i += step) out += s[i];
  else for (let i = start; i > end; i += step) out += s[i];
  return out;
}

/** x[lo:hi:step]; omitted parts are None. */
export function slice(x: Value, lo: Value, hi: Value, step: Value): Value {
  if (typeof x === "string") {
    const [a, b, c] = sliceIndices(x.length, lo, hi, step);
    return sliceString(x, a, b, c);
  }
  if (x instanceof StarList) {
    const [a, b, c] = sliceIndices(x.elems.length, lo, hi, step);
    return new StarList(sliceArray(x.elems, a, b, c));
  }
  if (x instanceof StarTuple) {
    const [a, b, c] = sliceIndices(x.elems.length, lo, hi, step);
    return new StarTuple(sliceArray(x.elems, a, b, c));
  }
  if (x instanceof StarRange) {
    const [a, b, c] = sliceIndices(x.length, lo, hi, step);
    const start = x.start + a * x.step;
    const stop = x.start + b * x.step;
    return new StarRange(start, stop, x.step * c);
  }
  if (x instanceof StarBytes) {
    const [a, b, c] = sliceIndices(x.data.length, lo, hi, step);
    return new StarBytes(sliceString(x.data, a, b, c));
  }
  throw new StarEvalError(`invalid slice operand ${typeName(x)}`);
}

/** Freezes x and everything reachable from it. */
export function freeze(x: Value): void {
  if (typeof x === "object") x.freeze();
}

/**
 * `x op= y`. Lists extend in place for `+=` (when y is iterable), so aliases observe
 * the change; everything else is `x = x op y`.
 */
export function augmentedBinary(op: BinaryOp, x: Value, y: Value, thread?: Thread): Value {
  if (op === "|" && x instanceof StarDict && y instanceof StarDict) {
    // `d |= other` updates d in place, as go.starlark.net does.
    for (const [k, v] of y.ht.entries()) x.setKey(k, v, thread);
    return x;
  }
  if (op === "+" && x instanceof StarList && typeof y === "object") {
    const elems = y === x ? x.elems.slice() : iterableToArrayIfIterable(y, thread);
    if (elems !== undefined) {
      x.checkMutable("apply += to");
      checkCollectionSize(thread, x.elems.length + elems.length);
      for (const e of elems) x.elems.push(e);
      return x;
    }
  }
  return binary(op, x, y, thread);
}

function iterableToArrayIfIterable(y: Value, thread?: Thread): Value[] | undefined {
  if (y instanceof StarFloat || y instanceof StarBytes) return undefined;
  return iterableToArray(y, thread);
}
