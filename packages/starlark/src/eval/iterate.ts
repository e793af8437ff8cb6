import {
  EvalError as StarEvalError,
  StarList,
  StarRange,
  StarTuple,
  type Thread,
  tryIterate,
  typeName,
  type Value,
} from "../values/index.js";

/**
 * Calls `each` for every element of `x` (a for loop or comprehension), counting one step per
 * iteration. `each` returns false to stop early. Lists are locked against mutation meanwhile.
 * Fast paths avoid allocating iterators for ranges, lists and tuples.
 */
export function forEachValue(thread: Thread, x: Value, each: (v: Value) => boolean): void {
  if (x instanceof StarRange) {
    const { start, step, length } = x;
    for (let i = 0; i < length; i++) {
      thread.checkStep();
      if (!each(start + i * step)) return;
    }
    return;
  }
  if (x instanceof StarList) {
    const lock = !x.frozen;
    if (lock) x.itercount++;
    try {
      const elems = x.elems;
      for (let i = 0; i < elems.length; i++) {
        thread.checkStep();
        if (!each(elems[i] as Value)) return;
      }
    } finally {
      if (lock) x.itercount--;
    }
    return;
  }
  if (x instanceof StarTuple) {
    const elems = x.elems;
    for (let i = 0; i < elems.length; i++) {
      thread.checkStep();
      if (!each(elems[i] as Value)) return;
    }
    return;
  }
  const it = tryIterate(x);
  if (it === undefined) throw new StarEvalError(`${typeName(x)} value is not iterable`);
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      thread.checkStep();
      if (!each(v)) return;
    }
  } finally {
    it.done();
  }
}

/** The elements of x for a sequence assignment `a, b = x` (go.starlark.net's messages). */
export function unpackValues(thread: Thread, x: Value, want: number): readonly Value[] {
  let elems: readonly Value[];
  if (x instanceof StarTuple || x instanceof StarList) elems = x.elems;
  else {
    const it = typeof x === "string" ? undefined : tryIterate(x);
    if (it === undefined) throw new StarEvalError(`got ${typeName(x)} in sequence assignment`);
    const out: Value[] = [];
    try {
      for (let v = it.next(); v !== undefined; v = it.next()) {
        out.push(v);
        thread.checkStep();
      }
    } finally {
      it.done();
    }
    elems = out;
  }
  if (elems.length > want)
    throw new StarEvalError(`too many values to unpack (got ${elems.length}, want ${want})`);
  if (elems.length < want)
    throw new StarEvalError(`too few values to unpack (got ${elems.length}, want ${want})`);
  return elems;
}
