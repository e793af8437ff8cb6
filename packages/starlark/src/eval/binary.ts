import type { BinaryOp } from "../syntax/ast.js";
import type { Position } from "../syntax/position.js";
import {
  ALLOC,
  binary,
  compare,
  equals,
  inOperator,
  StarDict,
  StarFloat,
  type Value,
} from "../values/index.js";
import { annotate } from "./errors.js";
import type { ExprFn, Frame } from "./frame.js";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT32 = 0x7fffffff;

export function slowBinary(fr: Frame, op: BinaryOp, a: Value, b: Value, pos: Position): Value {
  try {
    switch (op) {
      case "==":
        return equals(a, b);
      case "!=":
        return !equals(a, b);
      case "<":
      case "<=":
      case ">":
      case ">=":
        return compare(op, a, b);
      case "in":
        return inOperator(a, b);
      case "not in":
        return !inOperator(a, b);
      default:
        return binary(op as Parameters<typeof binary>[0], a, b, fr.thread);
    }
  } catch (e) {
    annotate(e, fr, pos);
  }
}

/**
 * `a op b` for + - * / when one operand is a float and the other a float or an int held as a JS
 * number (exactly representable, as go.starlark.net converts it); undefined otherwise, and for
 * division by zero, whose error the value layer raises.
 */
export function floatArith(op: BinaryOp, a: Value, b: Value): StarFloat | undefined {
  const fa = a instanceof StarFloat ? a.value : typeof a === "number" ? a : undefined;
  const fb = b instanceof StarFloat ? b.value : typeof b === "number" ? b : undefined;
  if (fa === undefined || fb === undefined) return undefined;
  switch (op) {
    case "+":
      return new StarFloat(fa + fb);
    case "-":
      return new StarFloat(fa - fb);
    case "*":
      return new StarFloat(fa * fb);
    case "/":
      return fb === 0 ? undefined : new StarFloat(fa / fb);
  }
  return undefined;
}

/**
 * Compiles `x op y` (not and/or). Small ints and strings take inline fast paths;
 * everything else goes through the value layer's operations, whose errors are positioned at the operator.
 */
export function compileBinary(op: BinaryOp, x: ExprFn, y: ExprFn, pos: Position): ExprFn {
  switch (op) {
    case "+":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === "number" && typeof b === "number") {
          const r = a + b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        } else if (typeof a === "string" && typeof b === "string") {
          const n = a.length + b.length;
          if (n <= fr.thread.limits.maxStringLength) {
            fr.thread.alloc(ALLOC.header + n);
            return a + b;
          }
        } else if (a instanceof StarFloat || b instanceof StarFloat) {
          const r = floatArith(op, a, b);
          if (r !== undefined) return r;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "-":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === "number" && typeof b === "number") {
          const r = a - b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        } else if (a instanceof StarFloat || b instanceof StarFloat) {
          const r = floatArith(op, a, b);
          if (r !== undefined) return r;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "*":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === "number" && typeof b === "number") {
          const r = a * b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0;
        } else if (a instanceof StarFloat || b instanceof StarFloat) {
          const r = floatArith(op, a, b);
          if (r !== undefined) return r;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "/":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        return floatArith(op, a, b) ?? slowBinary(fr, op, a, b, pos);
      };
    case "%":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === "number" && typeof b === "number" && b > 0) return intModPositive(a, b);
        return slowBinary(fr, op, a, b, pos);
      };
    case "//":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (
          typeof a === "number" &&
          typeof b === "number" &&
          b !== 0 &&
          a <= INT32 &&
          a >= -INT32 &&
          b <= INT32 &&
          b >= -INT32
        ) {
          return Math.floor(a / b) + 0;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "==":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        const t = typeof a;
        if (t === typeof b && (t === "number" || t === "string")) return a === b;
        return slowBinary(fr, op, a, b, pos);
      };
    case "!=":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        const t = typeof a;
        if (t === typeof b && (t === "number" || t === "string")) return a !== b;
        return slowBinary(fr, op, a, b, pos);
      };
    case "<":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (
          (typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string")
        ) {
          return a < b;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "<=":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (
          (typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string")
        ) {
          return a <= b;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case ">":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (
          (typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string")
        ) {
          return a > b;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case ">=":
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (
          (typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string")
        ) {
          return a >= b;
        }
        return slowBinary(fr, op, a, b, pos);
      };
    case "in":
    case "not in": {
      const negate = op === "not in";
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        // Membership of a string key in a dict: strings always hash, so no error is possible.
        if (typeof a === "string" && b instanceof StarDict) return (b.get(a) !== undefined) !== negate;
        return slowBinary(fr, op, a, b, pos);
      };
    }
    default:
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        return slowBinary(fr, op, a, b, pos);
      };
  }
}

/**
 * a % b for safe integers and b > 0, result in [0, b). V8 compiles `%` on non-int32 doubles to a
 * slow C call, so large operands use a floor-division identity instead (the quotient may be off
 * by one after rounding; the corrections fix that, and every product stays exact below 2^53).
 */
function intModPositive(a: number, b: number): number {
  if (a >= 0 && a <= INT32 && b <= INT32) return a % b;
  const q = Math.floor(a / b);
  let r = a - q * b;
  if (r < 0) r += b;
  else if (r >= b) r -= b;
  return r + 0;
}

/** Computes `a op b` for augmented assignment (the operator without '='). */
export function applyBinary(fr: Frame, op: BinaryOp, a: Value, b: Value, pos: Position): Value {
  if (typeof a === "number" && typeof b === "number") {
    if (op === "+") {
      const r = a + b;
      if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
    } else if (op === "-") {
      const r = a - b;
      if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
    } else if (op === "%" && b > 0) {
      return intModPositive(a, b);
    }
  }
  return slowBinary(fr, op, a, b, pos);
}
