/**
 * The core operations on Starlark values with go.starlark.net's semantics and error texts:
 * truth and hashing live here; comparison, operators and sequence access are re-exported
 * from compare.ts, arith.ts and sequence.ts.
 */
import { valueHooks } from "./hooks.js";
import { registerTupleElementHash } from "./list.js";
import { decodeRuneAt } from "./strings.js";
import { hashNumber, type Value } from "./value.js";

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

/**
 * go.starlark.net's hash(string), "Java's String.hashCode": 31*h + c over the string's code
 * points (each byte of an invalid UTF-8 sequence counting as U+FFFD). Upstream meant to split
 * code points above U+FFFF into UTF-16 surrogates, but its test (utf16.IsSurrogate) never holds
 * for a decoded code point, so the whole code point is added; this does the same.
 */
export function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      h = (Math.imul(h, 31) + c) | 0;
      i++;
      continue;
    }
    const { rune, size } = decodeRuneAt(s, i);
    i += size;
    h = (Math.imul(h, 31) + rune) | 0;
  }
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

export { augmentedBinary, binary, inOperator, registerPercentFormat, unary } from "./arith.js";
export { compare, compareDepth, compareForSort, equals } from "./compare.js";
export {
  freeze,
  getIndex,
  iterableToArray,
  iterableView,
  iterate,
  len,
  setIndex,
  slice,
  sliceIndices,
  tryIterate,
} from "./sequence.js";
