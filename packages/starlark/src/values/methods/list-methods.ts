/** The methods of the list type. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import type { StarList } from "../list.js";
import { equals, iterableToArray } from "../ops.js";
import { checkCollectionSize } from "../thread.js";
import { None, typeName, type Value } from "../value.js";
import { intArg, positional } from "./common.js";

function recv(self: Value): StarList {
  return self as StarList;
}

/** Clamps an optional start/end index like go.starlark.net's `indices`. */
function clampIndex(name: string, v: Value | undefined, dflt: number, n: number, i: number): number {
  if (v === undefined || v === None) return dflt;
  let x = intArg(name, i, v);
  if (x < 0) x += n;
  return x < 0 ? 0 : Math.min(x, n);
}

const methods: Record<string, MethodFn> = {
  append: (t, self, args, kwargs) => {
    positional("append", args, kwargs, 1, 1);
    const l = recv(self);
    l.checkMutable("append to");
    checkCollectionSize(t, l.elems.length + 1);
    l.elems.push(args[0] as Value);
    return None;
  },
  clear: (_t, self, args, kwargs) => {
    positional("clear", args, kwargs, 0, 0);
    const l = recv(self);
    l.checkMutable("clear");
    l.elems.length = 0;
    return None;
  },
  extend: (t, self, args, kwargs) => {
    positional("extend", args, kwargs, 1, 1);
    const l = recv(self);
    l.checkMutable("extend");
    const it = args[0] as Value;
    const elems = typeof it === "string" ? undefined : iterableToArray(it, t);
    if (elems === undefined)
      throw new StarEvalError(`extend: for parameter 1: got ${typeName(it)}, want iterable`);
    checkCollectionSize(t, l.elems.length + elems.length);
    for (const e of elems) l.elems.push(e);
    return None;
  },
  index: (_t, self, args, kwargs) => {
    positional("index", args, kwargs, 1, 3);
    const l = recv(self);
    const n = l.elems.length;
    const start = clampIndex("index", args[1], 0, n, 2);
    const end = clampIndex("index", args[2], n, n, 3);
    for (let i = start; i < end; i++) if (equals(l.elems[i] as Value, args[0] as Value)) return i;
    throw new StarEvalError("index: value not in list");
  },
  insert: (t, self, args, kwargs) => {
    positional("insert", args, kwargs, 2, 2);
    const l = recv(self);
    l.checkMutable("insert into");
    const n = l.elems.length;
    let i = intArg("insert", 1, args[0] as Value);
    if (i < 0) i += n;
    if (i > n) i = n;
    else if (i < 0) i = 0;
    checkCollectionSize(t, n + 1);
    l.elems.splice(i, 0, args[1] as Value);
    return None;
  },
  pop: (_t, self, args, kwargs) => {
    positional("pop", args, kwargs, 0, 1);
    const l = recv(self);
    const n = l.elems.length;
    let i = args[0] === undefined ? n - 1 : intArg("pop", 1, args[0]);
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw new StarEvalError(`pop: index ${orig} out of range [${-n}:${n - 1}]`);
    l.checkMutable("pop from");
    const [v] = l.elems.splice(i, 1);
    return v as Value;
  },
  remove: (_t, self, args, kwargs) => {
    positional("remove", args, kwargs, 1, 1);
    const l = recv(self);
    l.checkMutable("remove from");
    for (let i = 0; i < l.elems.length; i++) {
      if (equals(l.elems[i] as Value, args[0] as Value)) {
        l.elems.splice(i, 1);
        return None;
      }
    }
    throw new StarEvalError("remove: element not found");
  },
};

defineMethods("list", methods);
