/** The methods of the dict type. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarDict } from "../dict.js";
import { StarEvalError } from "../errors.js";
import { StarList, StarTuple } from "../list.js";
import { iterableToArray, len } from "../ops.js";
import { repr } from "../repr.js";
import type { Thread } from "../thread.js";
import { None, typeName, type Value } from "../value.js";
import { positional } from "./common.js";

function recv(self: Value): StarDict {
  return self as StarDict;
}

/**
 * dict.update / dict(...) semantics: an optional positional mapping or iterable of
 * pairs, then keyword arguments.
 */
export function updateDict(
  fnName: string,
  d: StarDict,
  args: Value[],
  kwargs: [string, Value][],
  thread?: Thread,
): void {
  if (args.length > 1) throw new StarEvalError(`${fnName}: got ${args.length} arguments, want at most 1`);
  const src = args[0];
  if (src !== undefined) {
    if (src instanceof StarDict) {
      if (!d.ht.copyFrom(src.ht, thread)) for (const [k, v] of src.ht.entries()) d.setKey(k, v, thread);
    } else {
      const items = typeof src === "string" ? undefined : iterableToArray(src);
      if (items === undefined) throw new StarEvalError(`${fnName}: got ${typeName(src)}, want iterable`);
      for (let i = 0; i < items.length; i++) {
        const pair = items[i] as Value;
        let kv: readonly Value[] | undefined;
        if (pair instanceof StarTuple || pair instanceof StarList) kv = pair.elems;
        else if (typeof pair !== "string") kv = iterableToArray(pair);
        if (kv === undefined) {
          throw new StarEvalError(
            `${fnName}: dictionary update sequence element #${i} is not iterable (${typeName(pair)})`,
          );
        }
        if (kv.length !== 2) {
          throw new StarEvalError(
            `${fnName}: dictionary update sequence element #${i} has length ${len(pair)}, want 2`,
          );
        }
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
      if (seen.has(k)) throw new StarEvalError(`${fnName}: duplicate keyword arg: ${repr(k)}`);
      seen.add(k);
    }
  }
}

const methods: Record<string, MethodFn> = {
  clear: (_t, self, args, kwargs) => {
    positional("clear", args, kwargs, 0, 0);
    recv(self).ht.clear();
    return None;
  },
  get: (_t, self, args, kwargs) => {
    positional("get", args, kwargs, 1, 2);
    const v = recv(self).ht.get(args[0] as Value);
    if (v !== undefined) return v;
    return args[1] ?? None;
  },
  items: (_t, self, args, kwargs) => {
    positional("items", args, kwargs, 0, 0);
    return new StarList(recv(self).ht.itemTuples());
  },
  keys: (_t, self, args, kwargs) => {
    positional("keys", args, kwargs, 0, 0);
    return new StarList(recv(self).ht.keys());
  },
  pop: (_t, self, args, kwargs) => {
    positional("pop", args, kwargs, 1, 2);
    const d = recv(self);
    const v = d.ht.delete(args[0] as Value);
    if (v !== undefined) return v;
    if (args[1] !== undefined) return args[1];
    throw new StarEvalError(`pop: missing key ${repr(args[0] as Value)}`);
  },
  popitem: (_t, self, args, kwargs) => {
    positional("popitem", args, kwargs, 0, 0);
    const d = recv(self);
    const first = d.ht.first();
    if (first === undefined) throw new StarEvalError("popitem: empty dict");
    d.ht.delete(first[0]);
    return new StarTuple(first);
  },
  setdefault: (t, self, args, kwargs) => {
    positional("setdefault", args, kwargs, 1, 2);
    const d = recv(self);
    const v = d.ht.get(args[0] as Value);
    if (v !== undefined) return v;
    const dflt = args[1] ?? None;
    d.setKey(args[0] as Value, dflt, t);
    return dflt;
  },
  update: (t, self, args, kwargs) => {
    updateDict("update", recv(self), args, kwargs, t);
    return None;
  },
  values: (_t, self, args, kwargs) => {
    positional("values", args, kwargs, 0, 0);
    return new StarList(recv(self).ht.values());
  },
};

defineMethods("dict", methods);
