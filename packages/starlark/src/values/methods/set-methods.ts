/** The methods of the set type. */
import { defineMethods } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import { compareDepth, iterableToArray } from "../ops.js";
import { StarSet } from "../set.js";
import { checkCollectionSize } from "../thread.js";
import { type BuiltinFn, None, typeName, type Value } from "../value.js";
import { positional } from "./common.js";

function recv(self: { receiver?: Value }): StarSet {
  return self.receiver as StarSet;
}

function iterableArg(name: string, v: Value): Value[] {
  const elems = typeof v === "string" ? undefined : iterableToArray(v);
  if (elems === undefined)
    throw new StarEvalError(`${name}: for parameter 1: got ${typeName(v)}, want iterable`);
  return elems;
}

const methods: Record<string, BuiltinFn> = {
  add: (t, args, kwargs, self) => {
    positional("add", args, kwargs, 1, 1);
    const s = recv(self);
    if (!s.has(args[0] as Value)) {
      checkCollectionSize(t, s.len() + 1);
      s.add(args[0] as Value);
    } else if (s.frozen) {
      s.ht.checkMutable("insert into");
    }
    return None;
  },
  clear: (_t, args, kwargs, self) => {
    positional("clear", args, kwargs, 0, 0);
    recv(self).ht.clear();
    return None;
  },
  difference: (_t, args, kwargs, self) => {
    positional("difference", args, kwargs, 1, 1);
    const other = new StarSet(iterableArg("difference", args[0] as Value));
    return new StarSet(
      recv(self)
        .elems()
        .filter((e) => !other.has(e)),
    );
  },
  discard: (_t, args, kwargs, self) => {
    positional("discard", args, kwargs, 1, 1);
    const s = recv(self);
    if (s.has(args[0] as Value)) s.ht.delete(args[0] as Value);
    return None;
  },
  intersection: (_t, args, kwargs, self) => {
    positional("intersection", args, kwargs, 1, 1);
    const other = new StarSet(iterableArg("intersection", args[0] as Value));
    return new StarSet(
      recv(self)
        .elems()
        .filter((e) => other.has(e)),
    );
  },
  issubset: (_t, args, kwargs, self) => {
    positional("issubset", args, kwargs, 1, 1);
    const other = new StarSet(iterableArg("issubset", args[0] as Value));
    return recv(self)
      .elems()
      .every((e) => other.has(e));
  },
  issuperset: (_t, args, kwargs, self) => {
    positional("issuperset", args, kwargs, 1, 1);
    const s = recv(self);
    return iterableArg("issuperset", args[0] as Value).every((e) => s.has(e));
  },
  pop: (_t, args, kwargs, self) => {
    positional("pop", args, kwargs, 0, 0);
    const s = recv(self);
    const first = s.ht.first();
    if (first === undefined) throw new StarEvalError("pop: empty set");
    s.ht.delete(first[0]);
    return first[0];
  },
  remove: (_t, args, kwargs, self) => {
    positional("remove", args, kwargs, 1, 1);
    const s = recv(self);
    if (s.ht.delete(args[0] as Value) === undefined) throw new StarEvalError("remove: missing key");
    return None;
  },
  symmetric_difference: (_t, args, kwargs, self) => {
    positional("symmetric_difference", args, kwargs, 1, 1);
    const s = recv(self);
    const other = new StarSet(iterableArg("symmetric_difference", args[0] as Value));
    const out = new StarSet(s.elems().filter((e) => !other.has(e)));
    for (const e of other.elems()) if (!s.has(e)) out.add(e);
    return out;
  },
  union: (t, args, kwargs, self) => {
    positional("union", args, kwargs, 1, 1);
    const out = new StarSet(recv(self).elems());
    for (const e of iterableArg("union", args[0] as Value)) out.add(e);
    checkCollectionSize(t, out.len());
    return out;
  },
  update: (t, args, kwargs, self) => {
    if (kwargs.length > 0) throw new StarEvalError("update: unexpected keyword arguments");
    const s = recv(self);
    for (const a of args) for (const e of iterableArg("update", a)) s.ht.has(e) || s.ht.set(e, e);
    checkCollectionSize(t, s.len());
    return None;
  },
};
void compareDepth;

defineMethods("set", methods);
