/** len, iteration, indexing and slicing of Starlark values. */
import { StarBytes } from "./bytes.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import type { Int } from "./int.js";
import { ArrayIterator, StarList, StarTuple } from "./list.js";
import { isRange, StarRange } from "./range.js";
import { repr } from "./repr.js";
import { StarSet } from "./set.js";
import { allocSlots, allocString, checkCollectionSize, type Thread } from "./thread.js";
import { ArgError, asInt32 } from "./unpack.js";
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
  if (x instanceof StarList || x instanceof StarTuple) {
    allocSlots(thread, x.elems.length);
    return x.elems.slice();
  }
  if (x instanceof StarDict || x instanceof StarSet) {
    allocSlots(thread, x.ht.size);
    return x.ht.keys();
  }
  if (x instanceof StarRange) {
    allocSlots(thread, x.length);
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
  allocSlots(thread, out.length);
  return out;
}

/** go's outOfRange: the error for index i of a sequence of length n and type `type`. */
export function outOfRange(i: Int, n: number, type: string): StarEvalError {
  if (n === 0) return new StarEvalError(`index ${i} out of range: empty ${type}`);
  return new StarEvalError(`${type} index ${i} out of range [${-n}:${n - 1}]`);
}

/** The element position for x[key] on a sequence of length n (go's getIndex / setIndex checks). */
export function sequenceIndex(type: string, key: Value, n: number, prefix: boolean): number {
  let i: number;
  try {
    i = asInt32(key);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(prefix ? `${type} index: ${e.message}` : e.message);
    throw e;
  }
  const orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw outOfRange(orig, n, type);
  return i;
}

/** x[key]. */
export function getIndex(x: Value, key: Value): Value {
  if (x instanceof StarList) return x.elems[sequenceIndex("list", key, x.elems.length, true)] as Value;
  if (x instanceof StarTuple) return x.elems[sequenceIndex("tuple", key, x.elems.length, true)] as Value;
  if (x instanceof StarDict) {
    const v = x.ht.get(key);
    if (v === undefined) throw new StarEvalError(`key ${repr(key)} not in dict`);
    return v;
  }
  if (typeof x === "string") return x[sequenceIndex("string", key, x.length, true)] as string;
  if (isRange(x)) return x.at(sequenceIndex("range", key, x.length, true));
  if (x instanceof StarBytes) {
    const i = sequenceIndex("bytes", key, x.data.length, true);
    return new StarBytes(x.data[i] as string);
  }
  if (typeof x === "object" && !(x instanceof StarFloat) && typeof x.getIndex === "function") {
    return x.getIndex(key);
  }
  throw new StarEvalError(`unhandled index operation ${typeName(x)}[${typeName(key)}]`);
}

/** x[key] = v (the thread, when given, bounds dict growth). */
export function setIndex(x: Value, key: Value, v: Value, thread?: Thread): void {
  if (x instanceof StarList) {
    const i = sequenceIndex("list", key, x.elems.length, false);
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

/**
 * go's asIndex: an optional (None or absent) index; a negative one counts from the end.
 * Returns `dflt` when absent.
 */
function asIndex(v: Value | undefined, n: number, dflt: number): number {
  if (v === undefined || v === None) return dflt;
  const i = asInt32(v);
  return i < 0 ? i + n : i;
}

/**
 * go's indices: optional start and end indices clamped to [0:n] (start may exceed end), for
 * slices with a positive stride and the index/find/count methods.
 */
export function indices(startv: Value | undefined, endv: Value | undefined, n: number): [number, number] {
  let start: number;
  let end: number;
  try {
    start = asIndex(startv, n, 0);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`invalid start index: ${e.message}`);
    throw e;
  }
  start = start < 0 ? 0 : Math.min(start, n);
  try {
    end = asIndex(endv, n, n);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`invalid end index: ${e.message}`);
    throw e;
  }
  end = end < 0 ? 0 : Math.min(end, n);
  return [start, end];
}

/** The (start, end, step) of x[lo:hi:step] over length n, exactly as go's slice computes them. */
export function sliceIndices(n: number, lo: Value, hi: Value, stepv: Value): [number, number, number] {
  let step = 1;
  if (stepv !== None) {
    try {
      step = asInt32(stepv);
    } catch (e) {
      if (e instanceof ArgError) throw new StarEvalError(`invalid slice step: ${e.message}`);
      throw e;
    }
    if (step === 0) throw new StarEvalError("zero is not a valid slice step");
  }
  if (step > 0) {
    const [start, end] = indices(lo, hi, n);
    return [start, Math.max(start, end), step];
  }
  let start: number;
  let end: number;
  try {
    start = asIndex(lo, n, n - 1);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`invalid start index: ${e.message}`);
    throw e;
  }
  if (start >= n) start = n - 1;
  try {
    end = asIndex(hi, n, -1);
  } catch (e) {
    if (e instanceof ArgError) throw new StarEvalError(`invalid end index: ${e.message}`);
    throw e;
  }
  if (end < -1) end = -1;
  if (start < end) start = end;
  return [start, end, step];
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

/** The number of elements of a slice (start, end, step) as sliceIndices gives them. */
function sliceLength(start: number, end: number, step: number): number {
  if (step > 0) return start < end ? Math.ceil((end - start) / step) : 0;
  return start > end ? Math.ceil((start - end) / -step) : 0;
}

/** x[lo:hi:step]; omitted parts are None. The result is charged to the thread's allocation budget. */
export function slice(x: Value, lo: Value, hi: Value, step: Value, thread?: Thread): Value {
  if (typeof x === "string") {
    const [a, b, c] = sliceIndices(x.length, lo, hi, step);
    allocString(thread, sliceLength(a, b, c));
    return sliceString(x, a, b, c);
  }
  if (x instanceof StarList) {
    const [a, b, c] = sliceIndices(x.elems.length, lo, hi, step);
    allocSlots(thread, sliceLength(a, b, c));
    return new StarList(sliceArray(x.elems, a, b, c));
  }
  if (x instanceof StarTuple) {
    const [a, b, c] = sliceIndices(x.elems.length, lo, hi, step);
    allocSlots(thread, sliceLength(a, b, c));
    return new StarTuple(sliceArray(x.elems, a, b, c));
  }
  if (isRange(x)) {
    const [a, b, c] = sliceIndices(x.length, lo, hi, step);
    return x.slice(a, b, c);
  }
  if (x instanceof StarBytes) {
    const [a, b, c] = sliceIndices(x.data.length, lo, hi, step);
    allocString(thread, sliceLength(a, b, c));
    return new StarBytes(sliceString(x.data, a, b, c));
  }
  throw new StarEvalError(`invalid slice operand ${typeName(x)}`);
}

/** Freezes x and everything reachable from it. */
export function freeze(x: Value): void {
  if (typeof x === "object") x.freeze();
}
