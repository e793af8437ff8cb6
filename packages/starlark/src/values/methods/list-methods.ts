/** The methods of the list type, as go.starlark.net's library.go writes them. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import type { StarList } from "../list.js";
import { equals, iterableToArray } from "../ops.js";
import { indices, outOfRange } from "../sequence.js";
import { ALLOC, checkCollectionSize } from "../thread.js";
import { asInt64, asIterable, asValue, checkPositionalArgs, unpackPositionalArgs } from "../unpack.js";
import { None, type Value } from "../value.js";
import { nameErr } from "./common.js";

function recv(self: Value): StarList {
  return self as StarList;
}

/** list.checkMutable with the method's name in front, as upstream's nameErr. */
function checkMutable(name: string, l: StarList, verb: string): void {
  if (l.frozen || l.itercount > 0) {
    try {
      l.checkMutable(verb);
    } catch (e) {
      throw nameErr(name, e);
    }
  }
}

/** An int argument as a JS number; beyond 2^53 it only matters as "past either end". */
function clampedNumber(i: number | bigint): number {
  return typeof i === "number" ? i : i < 0n ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
}

const methods: Record<string, MethodFn> = {
  append: (t, self, args, kwargs) => {
    checkPositionalArgs("append", args, kwargs, 1, 1);
    const l = recv(self);
    checkMutable("append", l, "append to");
    checkCollectionSize(t, l.elems.length + 1);
    t.alloc(ALLOC.slot);
    l.elems.push(args[0] as Value);
    return None;
  },
  clear: (_t, self, args, kwargs) => {
    checkPositionalArgs("clear", args, kwargs, 0, 0);
    const l = recv(self);
    checkMutable("clear", l, "clear");
    l.elems.length = 0;
    return None;
  },
  extend: (t, self, args, kwargs) => {
    const [it] = unpackPositionalArgs("extend", args, kwargs, 1, [asIterable]) as [Value];
    const l = recv(self);
    checkMutable("extend", l, "extend");
    const elems = iterableToArray(it, t) ?? [];
    checkCollectionSize(t, l.elems.length + elems.length);
    t.alloc(ALLOC.slot * elems.length);
    for (const e of elems) l.elems.push(e);
    return None;
  },
  index: (_t, self, args, kwargs) => {
    checkPositionalArgs("index", args, kwargs, 1, 3);
    const l = recv(self);
    let start: number;
    let end: number;
    try {
      [start, end] = indices(args[1], args[2], l.elems.length);
      for (let i = start; i < end; i++) if (equals(l.elems[i] as Value, args[0] as Value)) return i;
    } catch (e) {
      throw nameErr("index", e);
    }
    throw new StarEvalError("index: value not in list");
  },
  insert: (t, self, args, kwargs) => {
    const [index, x] = unpackPositionalArgs("insert", args, kwargs, 2, [asInt64, asValue]) as [
      number | bigint,
      Value,
    ];
    const l = recv(self);
    checkMutable("insert", l, "insert into");
    const n = l.elems.length;
    let i = clampedNumber(index);
    if (i < 0) i += n;
    checkCollectionSize(t, n + 1);
    t.alloc(ALLOC.slot);
    if (i >= n) l.elems.push(x);
    else l.elems.splice(Math.max(i, 0), 0, x);
    return None;
  },
  pop: (_t, self, args, kwargs) => {
    const l = recv(self);
    const n = l.elems.length;
    const [index] = unpackPositionalArgs("pop", args, kwargs, 0, [asInt64]) as [number | bigint | undefined];
    const orig = index ?? n - 1;
    let i = clampedNumber(orig);
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw nameErr("pop", outOfRange(orig, n, "list"));
    checkMutable("pop", l, "pop from");
    const [v] = l.elems.splice(i, 1);
    return v as Value;
  },
  remove: (_t, self, args, kwargs) => {
    checkPositionalArgs("remove", args, kwargs, 1, 1);
    const l = recv(self);
    checkMutable("remove", l, "remove from");
    for (let i = 0; i < l.elems.length; i++) {
      let eq: boolean;
      try {
        eq = equals(l.elems[i] as Value, args[0] as Value);
      } catch (e) {
        throw nameErr("remove", e);
      }
      if (eq) {
        l.elems.splice(i, 1);
        return None;
      }
    }
    throw new StarEvalError("remove: element not found");
  },
};

defineMethods("list", methods);
