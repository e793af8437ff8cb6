/**
 * The methods of the set type, as the newest go.starlark.net (which LXD/Incus embed) writes
 * them: the same order of checks (mutability, then hashing), the same use of its hash-table
 * primitives, and every error prefixed with the method's name.
 */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import { iterableToArray } from "../ops.js";
import {
  cloneSet,
  type StarSet,
  setDifference,
  setIntersection,
  setIsSubset,
  setIsSuperset,
  setSymmetricDifference,
} from "../set.js";
import type { Thread } from "../thread.js";
import { asIterable, checkPositionalArgs, unpackPositionalArgs } from "../unpack.js";
import { None, typeName, type Value } from "../value.js";
import { nameErr } from "./common.js";

function recv(self: Value): StarSet {
  return self as StarSet;
}

/** The elements of the optional iterable argument of difference, intersection, issubset, ... */
function otherElems(name: string, args: Value[], kwargs: [string, Value][], t: Thread): Value[] {
  const [other] = unpackPositionalArgs(name, args, kwargs, 0, [asIterable]) as [Value | undefined];
  return other === undefined ? [] : (iterableToArray(other, t) ?? []);
}

/** go's setUpdate: every positional argument must be iterable; no keywords. Bare errors. */
function setUpdate(s: StarSet, args: Value[], kwargs: [string, Value][], t: Thread): void {
  if (kwargs.length > 0) throw new StarEvalError("does not accept keyword arguments");
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Value;
    const elems = typeof a === "object" ? iterableToArray(a, t) : undefined;
    if (elems === undefined) throw new StarEvalError(`argument #${i + 1} is not iterable: ${typeName(a)}`);
    // Upstream inserts while iterating the argument: a set updated with itself is being iterated.
    if (a === s && elems.length > 0) {
      s.checkMutable("insert into");
      throw new StarEvalError("cannot insert into hash table during iteration");
    }
    for (const e of elems) s.set(e, e, t);
  }
}

const methods: Record<string, MethodFn> = {
  add: (t, self, args, kwargs) => {
    checkPositionalArgs("add", args, kwargs, 1, 1);
    const s = recv(self);
    try {
      s.checkMutable("insert into");
      if (s.get(args[0] as Value) !== undefined) return None;
      s.set(args[0] as Value, args[0] as Value, t);
    } catch (e) {
      throw nameErr("add", e);
    }
    return None;
  },
  clear: (_t, self, args, kwargs) => {
    checkPositionalArgs("clear", args, kwargs, 0, 0);
    const s = recv(self);
    if (s.len() > 0) {
      try {
        s.clear();
      } catch (e) {
        throw nameErr("clear", e);
      }
    }
    return None;
  },
  difference: (t, self, args, kwargs) => {
    const other = otherElems("difference", args, kwargs, t);
    try {
      return setDifference(recv(self), other);
    } catch (e) {
      throw nameErr("difference", e);
    }
  },
  discard: (_t, self, args, kwargs) => {
    checkPositionalArgs("discard", args, kwargs, 1, 1);
    const s = recv(self);
    try {
      s.checkMutable("delete from");
      if (s.get(args[0] as Value) === undefined) return None;
      s.delete(args[0] as Value);
    } catch (e) {
      throw nameErr("discard", e);
    }
    return None;
  },
  intersection: (t, self, args, kwargs) => {
    const other = otherElems("intersection", args, kwargs, t);
    try {
      return setIntersection(recv(self), other, t);
    } catch (e) {
      throw nameErr("intersection", e);
    }
  },
  issubset: (t, self, args, kwargs) => {
    const other = otherElems("issubset", args, kwargs, t);
    try {
      return setIsSubset(recv(self), other);
    } catch (e) {
      throw nameErr("issubset", e);
    }
  },
  issuperset: (t, self, args, kwargs) => {
    const other = otherElems("issuperset", args, kwargs, t);
    try {
      return setIsSuperset(recv(self), other);
    } catch (e) {
      throw nameErr("issuperset", e);
    }
  },
  pop: (_t, self, args, kwargs) => {
    checkPositionalArgs("pop", args, kwargs, 0, 0);
    const s = recv(self);
    const first = s.first();
    if (first === undefined) throw new StarEvalError("pop: empty set");
    try {
      s.delete(first[0]);
    } catch (e) {
      throw nameErr("pop", e);
    }
    return first[0];
  },
  remove: (_t, self, args, kwargs) => {
    checkPositionalArgs("remove", args, kwargs, 1, 1);
    let found: boolean;
    try {
      found = recv(self).delete(args[0] as Value) !== undefined;
    } catch (e) {
      throw nameErr("remove", e);
    }
    if (!found) throw new StarEvalError("remove: missing key");
    return None;
  },
  symmetric_difference: (t, self, args, kwargs) => {
    const other = otherElems("symmetric_difference", args, kwargs, t);
    try {
      return setSymmetricDifference(recv(self), other, t);
    } catch (e) {
      throw nameErr("symmetric_difference", e);
    }
  },
  union: (t, self, args, kwargs) => {
    const out = cloneSet(recv(self));
    try {
      setUpdate(out, args, kwargs, t);
    } catch (e) {
      throw nameErr("union", e);
    }
    return out;
  },
  update: (t, self, args, kwargs) => {
    try {
      setUpdate(recv(self), args, kwargs, t);
    } catch (e) {
      throw nameErr("update", e);
    }
    return None;
  },
};

defineMethods("set", methods);
