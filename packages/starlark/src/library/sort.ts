/**
 * sorted() ordering. Starlark comparison of same-typed values is a total order, so a
 * stable JS sort yields exactly go.starlark.net's result. When a comparison fails,
 * go.starlark.net keeps sorting and reports the LAST error its sort.Stable met; to
 * report the same message we then replay Go's algorithm (insertion sort in blocks of
 * 20, then SymMerge) with the same comparison sequence.
 */

import { floatCompare } from "../values/int.js";
import { StarTuple } from "../values/list.js";
import { compareDepth, compareForSort } from "../values/ops.js";
import { StarFloat, type Value } from "../values/value.js";

type Compare = (x: Value, y: Value) => number;

const compareNumbers: Compare = (x, y) =>
  (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
const compareStrings: Compare = (x, y) =>
  (x as string) < (y as string) ? -1 : (x as string) > (y as string) ? 1 : 0;

/**
 * Tuples compared element by element with inline cases for strings, ints held as numbers and
 * floats (the usual sort keys, e.g. `(-score, name)`); the first element pair of any other kind
 * hands the whole comparison to compareForSort, whose result the inline cases always agree with.
 */
const compareTuples: Compare = (x, y) => {
  const a = (x as StarTuple).elems;
  const b = (y as StarTuple).elems;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const p = a[i] as Value;
    const q = b[i] as Value;
    let c: number;
    if (typeof p === "string" && typeof q === "string") c = p < q ? -1 : p > q ? 1 : 0;
    else if (typeof p === "number" && typeof q === "number") c = p < q ? -1 : p > q ? 1 : 0;
    else if (p instanceof StarFloat && q instanceof StarFloat) c = floatCompare(p.value, q.value);
    else return compareForSort(x, y);
    if (c !== 0) return c;
  }
  return a.length - b.length;
};

/** A comparator specialized for keys that are all ints (as numbers), all strings or all tuples. */
function comparatorFor(keys: readonly Value[]): Compare {
  const first = keys[0];
  const kind = typeof first;
  if (kind === "number" || kind === "string") {
    for (let i = 1; i < keys.length; i++) if (typeof keys[i] !== kind) return compareForSort;
    return kind === "number" ? compareNumbers : compareStrings;
  }
  if (first instanceof StarTuple) {
    for (let i = 1; i < keys.length; i++) if (!(keys[i] instanceof StarTuple)) return compareForSort;
    return compareTuples;
  }
  return compareForSort;
}

/**
 * The first elements of tuple keys as plain numbers, when they are all floats or all ints
 * held as JS numbers (never mixed: then the general comparison decides), else undefined.
 * floatCompare orders such numbers exactly as compareTuples orders the values they came from.
 */
function leadingNumbers(keys: readonly StarTuple[]): Float64Array | undefined {
  const n = keys.length;
  const first = keys[0]?.elems[0];
  const floats = first instanceof StarFloat;
  if (!floats && typeof first !== "number") return undefined;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = (keys[i] as StarTuple).elems[0];
    if (floats) {
      if (!(e instanceof StarFloat)) return undefined;
      out[i] = e.value;
    } else {
      if (typeof e !== "number") return undefined;
      out[i] = e;
    }
  }
  return out;
}

/** Whether every element is a JS number (an int) / a string. */
function allOfType(xs: readonly Value[], type: "number" | "string"): boolean {
  for (let i = 0; i < xs.length; i++) if (typeof xs[i] !== type) return false;
  return true;
}

/**
 * Sorts `values` without a key function when they are all ints or all strings. Equal ints
 * (or strings) are indistinguishable, so stability is moot and the engine's own sorts apply:
 * a Float64Array (exact for safe ints) and the default string sort, which orders by UTF-16
 * code unit, i.e. by byte for Starlark's byte strings, exactly as Go compares strings.
 */
function sortPrimitives(values: Value[], reverse: boolean): boolean {
  const n = values.length;
  if (allOfType(values, "number")) {
    const nums = Float64Array.from(values as number[]).sort();
    for (let i = 0; i < n; i++) values[i] = nums[reverse ? n - 1 - i : i] as number;
    return true;
  }
  if (allOfType(values, "string")) {
    (values as string[]).sort();
    if (reverse) values.reverse();
    return true;
  }
  return false;
}

/** Sorts `values` (and the parallel `keys`, if given) in place; stable. */
export function stableSort(values: Value[], keys: Value[] | undefined, reverse: boolean): void {
  if (keys === undefined && sortPrimitives(values, reverse)) return;
  const k = keys ?? values;
  const n = values.length;
  const compare = comparatorFor(k);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const lead = compare === compareTuples ? leadingNumbers(k as StarTuple[]) : undefined;
  try {
    if (lead !== undefined) {
      // (-score, name) keys: most comparisons are settled by the first elements, read from
      // one flat array; ties compare the whole tuples as before.
      const sign = reverse ? -1 : 1;
      order.sort((a, b) => {
        const c = floatCompare(lead[a] as number, lead[b] as number);
        return sign * (c !== 0 ? c : compareTuples(k[a] as Value, k[b] as Value));
      });
    } else if (reverse) order.sort((a, b) => -compare(k[a] as Value, k[b] as Value));
    else order.sort((a, b) => compare(k[a] as Value, k[b] as Value));
  } catch {
    throw goSortError(k.slice(), reverse);
  }
  const sortedValues = order.map((i) => values[i] as Value);
  for (let i = 0; i < n; i++) values[i] = sortedValues[i] as Value;
  if (keys) {
    const sortedKeys = order.map((i) => keys[i] as Value);
    for (let i = 0; i < n; i++) keys[i] = sortedKeys[i] as Value;
  }
}

/** Replays Go's sort.Stable over the keys and returns the last comparison error. */
function goSortError(data: Value[], reverse: boolean): unknown {
  let lastError: unknown;
  const rawLess = (i: number, j: number): boolean => {
    try {
      return compareDepth("<", data[i] as Value, data[j] as Value, 10);
    } catch (e) {
      lastError = e;
      return false;
    }
  };
  const less = reverse ? (i: number, j: number) => rawLess(j, i) : rawLess;
  const swap = (i: number, j: number) => {
    const t = data[i] as Value;
    data[i] = data[j] as Value;
    data[j] = t;
  };
  goStable(data.length, less, swap);
  return lastError;
}

function insertionSort(
  a: number,
  b: number,
  less: (i: number, j: number) => boolean,
  swap: (i: number, j: number) => void,
) {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(j, j - 1); j--) swap(j, j - 1);
  }
}

function goStable(
  n: number,
  less: (i: number, j: number) => boolean,
  swap: (i: number, j: number) => void,
): void {
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b, less, swap);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n, less, swap);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b, less, swap);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n, less, swap);
    blockSize *= 2;
  }
}

function symMerge(
  a: number,
  m: number,
  b: number,
  less: (i: number, j: number) => boolean,
  swap: (i: number, j: number) => void,
): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(start, m, end, swap);
  if (a < start && start < mid) symMerge(a, start, mid, less, swap);
  if (mid < end && end < b) symMerge(mid, end, b, less, swap);
}

function swapRange(a: number, b: number, n: number, swap: (i: number, j: number) => void): void {
  for (let i = 0; i < n; i++) swap(a + i, b + i);
}

function rotate(a: number, m: number, b: number, swap: (i: number, j: number) => void): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(m - i, m, j, swap);
      i -= j;
    } else {
      swapRange(m - i, m + j - i, i, swap);
      j -= i;
    }
  }
  swapRange(m - i, m, i, swap);
}
