/** The methods of the dict type, as go.starlark.net's library.go writes them. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarDict } from "../dict.js";
import { StarEvalError } from "../errors.js";
import { StarList, StarTuple } from "../list.js";
import { iterableToArray, len } from "../ops.js";
import { quoteString } from "../repr.js";
import { ALLOC, allocSlots, type Thread } from "../thread.js";
import { checkPositionalArgs } from "../unpack.js";
import { None, typeName, type Value } from "../value.js";
import { nameErr } from "./common.js";

function recv(self: Value): StarDict {
  return self as StarDict;
}

/**
 * go's updateDict, behind dict(...) and dict.update: an optional positional mapping or
 * iterable of pairs, then keyword arguments. Errors are bare; the callers prefix their name.
 */
export function updateDict(d: StarDict, args: Value[], kwargs: [string, Value][], thread?: Thread): void {
  const src = args[0];
  if (src !== undefined) {
    if (src instanceof StarDict) {
      if (!d.ht.copyFrom(src.ht, thread)) for (const [k, v] of src.ht.entries()) d.setKey(k, v, thread);
    } else {
      const items = typeof src === "object" ? iterableToArray(src, thread) : undefined;
      if (items === undefined) throw new StarEvalError(`got ${typeName(src)}, want iterable`);
      for (let i = 0; i < items.length; i++) {
        const pair = items[i] as Value;
        let kv: readonly Value[] | undefined;
        if (pair instanceof StarTuple || pair instanceof StarList) kv = pair.elems;
        else if (typeof pair === "object") kv = iterableToArray(pair, thread);
        if (kv === undefined) {
          throw new StarEvalError(
            `dictionary update sequence element #${i} is not iterable (${typeName(pair)})`,
          );
        }
        const n = len(pair);
        if (n < 0) {
          throw new StarEvalError(
            `dictionary update sequence element #${i} has unknown length (${typeName(pair)})`,
          );
        }
        if (n !== 2)
          throw new StarEvalError(`dictionary update sequence element #${i} has length ${n}, want 2`);
        d.setKey(kv[0] as Value, kv[1] as Value, thread);
      }
    }
  }
  const before = d.len();
  for (const [k, v] of kwargs) d.setKey(k, v, thread);
  // Fewer new entries than keywords: report a repeated keyword (e.g. from **kwargs).
  if (d.len() < before + kwargs.length) {
    const seen = new Set<string>();
    for (const [k] of kwargs) {
      if (seen.has(k)) throw new StarEvalError(`duplicate keyword arg: ${quoteString(k)}`);
      seen.add(k);
    }
  }
}

const methods: Record<string, MethodFn> = {
  clear: (_t, self, args, kwargs) => {
    checkPositionalArgs("clear", args, kwargs, 0, 0);
    recv(self).ht.clear(); // upstream returns the frozen/iteration error without the name
    return None;
  },
  get: (_t, self, args, kwargs) => {
    checkPositionalArgs("get", args, kwargs, 1, 2);
    let v: Value | undefined;
    try {
      v = recv(self).ht.get(args[0] as Value);
    } catch (e) {
      throw nameErr("get", e);
    }
    if (v !== undefined) return v;
    return args[1] ?? None;
  },
  items: (t, self, args, kwargs) => {
    checkPositionalArgs("items", args, kwargs, 0, 0);
    const n = recv(self).ht.size;
    allocSlots(t, n);
    t.alloc((ALLOC.header + 2 * ALLOC.slot) * n);
    return new StarList(recv(self).ht.itemTuples());
  },
  keys: (t, self, args, kwargs) => {
    checkPositionalArgs("keys", args, kwargs, 0, 0);
    allocSlots(t, recv(self).ht.size);
    return new StarList(recv(self).ht.keys());
  },
  pop: (_t, self, args, kwargs) => {
    checkPositionalArgs("pop", args, kwargs, 1, 2);
    let v: Value | undefined;
    try {
      v = recv(self).ht.delete(args[0] as Value);
    } catch (e) {
      throw nameErr("pop", e);
    }
    if (v !== undefined) return v;
    if (args[1] !== undefined) return args[1];
    throw new StarEvalError("pop: missing key");
  },
  popitem: (_t, self, args, kwargs) => {
    checkPositionalArgs("popitem", args, kwargs, 0, 0);
    const d = recv(self);
    const first = d.ht.first();
    if (first === undefined) throw new StarEvalError("popitem: empty dict");
    try {
      d.ht.delete(first[0]);
    } catch (e) {
      throw nameErr("popitem", e);
    }
    return new StarTuple(first);
  },
  setdefault: (t, self, args, kwargs) => {
    checkPositionalArgs("setdefault", args, kwargs, 1, 2);
    const d = recv(self);
    try {
      const v = d.ht.get(args[0] as Value);
      if (v !== undefined) return v;
      const dflt = args[1] ?? None;
      d.setKey(args[0] as Value, dflt, t);
      return dflt;
    } catch (e) {
      throw nameErr("setdefault", e);
    }
  },
  update: (t, self, args, kwargs) => {
    if (args.length > 1) throw new StarEvalError(`update: got ${args.length} arguments, want at most 1`);
    try {
      updateDict(recv(self), args, kwargs, t);
    } catch (e) {
      throw nameErr("update", e);
    }
    return None;
  },
  values: (t, self, args, kwargs) => {
    checkPositionalArgs("values", args, kwargs, 0, 0);
    allocSlots(t, recv(self).ht.size);
    return new StarList(recv(self).ht.values());
  },
};

defineMethods("dict", methods);
