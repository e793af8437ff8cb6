/** len, iteration, indexing and slicing of Starlark values. */
import { StarBytes } from "./bytes.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import type { Int } from "./int.js";
import { ArrayIterator, StarList, StarTuple } from "./list.js";
import { StarRange } from "./range.js";
import { repr } from "./repr.js";
import { StarSet } from "./set.js";
import { checkCollectionSize, type Thread } from "./thread.js";
import { None, StarFloat, type StarIterator, typeName, type Value } from "./value.js";

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
