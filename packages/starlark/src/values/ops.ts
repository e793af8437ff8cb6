/**
 * The core operations on Starlark values with go.starlark.net's semantics and error texts:
 * truth and hashing live here; comparison, operators and sequence access are re-exported
 * from compare.ts, arith.ts and sequence.ts.
 */
import { valueHooks } from "./hooks.js";
import { registerTupleElementHash } from "./list.js";
import { decodeByteStringToUtf8 } from "./strings.js";
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
