/** The methods of the set type. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import { iterableToArray } from "../ops.js";
import { StarSet } from "../set.js";
import { None, typeName, type Value } from "../value.js";
import { positional } from "./common.js";

function recv(self: Value): StarSet {
  return self as StarSet;
}

function iterableArg(name: string, v: Value): Value[] {
  const elems = typeof v === "string" ? undefined : iterableToArray(v);
  if (elems === undefined)
    throw new StarEvalError(`${name}: for parameter 1: got ${typeName(v)}, want iterable`);
  return elems;
}

/** Elements of every positional iterable argument (for the *others methods). */
function allIterables(name: string, args: Value[], kwargs: [string, Value][], min: number): Value[][] {
  if (kwargs.length > 0) throw new StarEvalError(`${name}: unexpected keyword arguments`);
  if (args.length < min)
    throw new StarEvalError(`${name}: got ${args.length} arguments, want at least ${min}`);
  return args.map((a) => iterableArg(name, a));
}

/**
 * The set methods of current go.starlark.net (the version LXD/Incus embed). The 2021
 * conformance snapshot only had `union`; its `dir(set()) == ["union"]` check is the one
 * deliberate difference (see the package report).
 */
const methods: Record<string, MethodFn> = {
  add: (t, self, args, kwargs) => {
    positional("add", args, kwargs, 1, 1);
    const s = recv(self);
    s.ht.set(args[0] as Value, args[0] as Value, t);
    return None;
  },
  clear: (_t, self, args, kwargs) => {
    positional("clear", args, kwargs, 0, 0);
    const s = recv(self);
    if (s.len() > 0) s.ht.clear();
    else if (s.frozen) s.ht.checkMutable("clear");
    return None;
  },
  difference: (_t, self, args, kwargs) => {
    const others = allIterables("difference", args, kwargs, 0).map((xs) => new StarSet(xs));
    return new StarSet(
      recv(self)
        .elems()
        .filter((e) => !others.some((o) => o.has(e))),
    );
  },
  discard: (_t, self, args, kwargs) => {
    positional("discard", args, kwargs, 1, 1);
    const s = recv(self);
    if (s.has(args[0] as Value)) s.ht.delete(args[0] as Value);
    else if (s.frozen) s.ht.checkMutable("delete from");
    return None;
  },
  intersection: (_t, self, args, kwargs) => {
    const others = allIterables("intersection", args, kwargs, 0).map((xs) => new StarSet(xs));
    return new StarSet(
      recv(self)
        .elems()
        .filter((e) => others.every((o) => o.has(e))),
    );
  },
  issubset: (_t, self, args, kwargs) => {
    positional("issubset", args, kwargs, 1, 1);
    const other = new StarSet(iterableArg("issubset", args[0] as Value));
    return recv(self)
      .elems()
      .every((e) => other.has(e));
  },
  issuperset: (_t, self, args, kwargs) => {
    positional("issuperset", args, kwargs, 1, 1);
    const s = recv(self);
    return iterableArg("issuperset", args[0] as Value).every((e) => s.has(e));
  },
  pop: (_t, self, args, kwargs) => {
    positional("pop", args, kwargs, 0, 0);
    const s = recv(self);
    const first = s.ht.first();
    if (first === undefined) throw new StarEvalError("pop: empty set");
    s.ht.delete(first[0]);
    return first[0];
  },
  remove: (_t, self, args, kwargs) => {
    positional("remove", args, kwargs, 1, 1);
    const s = recv(self);
    if (s.ht.delete(args[0] as Value) === undefined) throw new StarEvalError("remove: missing key");
    return None;
  },
  symmetric_difference: (_t, self, args, kwargs) => {
    positional("symmetric_difference", args, kwargs, 1, 1);
    const s = recv(self);
    const other = new StarSet(iterableArg("symmetric_difference", args[0] as Value));
    const out = new StarSet(s.elems().filter((e) => !other.has(e)));
    for (const e of other.elems()) if (!s.has(e)) out.add(e);
    return out;
  },
  union: (t, self, args, kwargs) => {
    const out = new StarSet(recv(self).elems());
    for (const xs of allIterables("union", args, kwargs, 0)) for (const e of xs) out.ht.set(e, e, t);
    return out;
  },
  update: (t, self, args, kwargs) => {
    const s = recv(self);
    for (const xs of allIterables("update", args, kwargs, 0)) for (const e of xs) s.ht.set(e, e, t);
    return None;
  },
};

defineMethods("set", methods);
