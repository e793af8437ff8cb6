/** Comparison (==, <, ...) with go.starlark.net semantics, and the sort comparator. */
import { StarBytes } from "./bytes.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { valueHooks } from "./hooks.js";
import { compareIntFloat, floatCompare, type Int } from "./int.js";
import { StarList, StarTuple } from "./list.js";
import { isRange, rangesEqual, type StarBigRange, type StarRange } from "./range.js";
import { StarSet, setIsSubset, setIsSuperset } from "./set.js";
import { type CompareOp, StarFloat, type StarValue, typeName, type Value } from "./value.js";

const MAX_COMPARE_DEPTH = 10;

// ---------------------------------------------------------------- comparison

function sameType(x: Value, y: Value): boolean {
  const tx = typeof x;
  if (tx !== "object") return tx === typeof y || ((tx === "number" || tx === "bigint") && isIntPrim(y));
  return typeof y === "object" && (x as StarValue).type === (y as StarValue).type;
}

export function isIntPrim(v: Value): v is Int {
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
    if (isRange(x) && isRange(y)) return compareRanges(op, x, y);
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

/** go's Set.CompareSameType: equality, and the subset/superset orders (proper for < and >). */
function compareSets(op: CompareOp, x: StarSet, y: StarSet): boolean {
  switch (op) {
    case "==":
      return setsEqual(x, y);
    case "!=":
      return !setsEqual(x, y);
    case ">=":
      return x.len() >= y.len() && setIsSuperset(x, y.elems());
    case "<=":
      return x.len() <= y.len() && setIsSubset(x, y.elems());
    case ">":
      return x.len() > y.len() && setIsSuperset(x, y.elems());
    case "<":
      return x.len() < y.len() && setIsSubset(x, y.elems());
  }
}

function setsEqual(x: StarSet, y: StarSet): boolean {
  if (x.len() !== y.len()) return false;
  for (const e of x.elems()) if (y.get(e) === undefined) return false;
  return true;
}

function compareRanges(op: CompareOp, x: StarRange | StarBigRange, y: StarRange | StarBigRange): boolean {
  if (op !== "==" && op !== "!=") throw notImplemented(op, x, y);
  const eq = rangesEqual(x, y);
  return op === "==" ? eq : !eq;
}

export { MAX_COMPARE_DEPTH };
