/** Binary and unary operators (arithmetic, bitwise, concatenation, repetition, in). */
import { StarBytes } from "./bytes.js";
import { equals, isIntPrim } from "./compare.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import {
  floatToInt,
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
import { StarList, StarTuple } from "./list.js";
import { truth } from "./ops.js";
import { isRange, rangeContains } from "./range.js";
import { iterableToArray } from "./sequence.js";
import { cloneSet, StarSet, setDifference, setIntersection, setSymmetricDifference } from "./set.js";
import { ALLOC, allocSlots, allocString, checkCollectionSize, type Thread } from "./thread.js";
import { type BinaryOp, StarFloat, type StarValue, typeName, type UnaryOp, type Value } from "./value.js";

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

/**
 * go's tupleRepeat/stringRepeat count: an empty operand repeats to empty whatever the count; the
 * count must be a 32-bit int; the result must stay below 2^30 elements. The result is charged
 * to the allocation budget before it is built.
 */
function repeatCount(n: Int, len: number, thread: Thread | undefined, isString: boolean): number {
  if (len === 0) return 0;
  if (typeof n === "bigint" || n < -0x80000000 || n > 0x7fffffff)
    throw new StarEvalError(`repeat count ${n} too large`);
  if (n < 1) return 0;
  const total = len * n;
  if (total >= 2 ** 30) throw new StarEvalError(`excessive repeat (${len} * ${n} elements)`);
  if (isString) allocString(thread, total);
  else allocSlots(thread, total);
  return n;
}

function repeatArray(elems: readonly Value[], n: Int, thread: Thread | undefined): Value[] {
  const count = repeatCount(n, elems.length, thread, false);
  const out: Value[] = [];
  for (let i = 0; i < count; i++) for (const e of elems) out.push(e);
  return out;
}

function repeatString(s: string, n: Int, thread: Thread | undefined): string {
  const count = repeatCount(n, s.length, thread, true);
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
      allocString(thread, x.length + y.length);
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
      allocSlots(thread, x.elems.length + y.elems.length);
      return new StarList(x.elems.concat(y.elems));
    }
    if (op === "*" && isIntPrim(y)) return new StarList(repeatArray(x.elems, y, thread));
  } else if (x instanceof StarTuple) {
    if (op === "+" && y instanceof StarTuple) {
      allocSlots(thread, x.elems.length + y.elems.length);
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
      allocString(thread, x.data.length + y.data.length);
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

/** go's set operators; the right operand's elements are read in its own order. */
function setBinary(op: BinaryOp, x: StarSet, y: StarSet, thread: Thread | undefined): Value | undefined {
  switch (op) {
    case "|": {
      const out = cloneSet(x);
      for (const e of y.elems()) out.set(e, e, thread);
      return out;
    }
    case "&":
      return setIntersection(x, y.elems(), thread);
    case "^":
      return setSymmetricDifference(x, y.elems(), thread);
    case "-":
      return setDifference(x, y.elems());
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
  if (isRange(y)) {
    // go's NumberToInt: a finite float counts as its truncation.
    if (isIntPrim(x)) return rangeContains(y, x);
    if (x instanceof StarFloat && Number.isFinite(x.value)) return rangeContains(y, floatToInt(x.value));
    throw new StarEvalError(`'in <range>' requires integer as left operand, not ${typeName(x)}`);
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
  throw new StarEvalError(`unknown unary op: ${op} ${typeName(x)}`);
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
      thread?.alloc(ALLOC.slot * elems.length);
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
