/** The methods of the set type. */
import { defineMethods, type MethodFn } from "../attrs.js";
import { StarEvalError } from "../errors.js";
import { iterableToArray } from "../ops.js";
import { StarSet } from "../set.js";
import { checkCollectionSize } from "../thread.js";
import { typeName, type Value } from "../value.js";
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

/**
 * go.starlark.net at the conformance snapshot (2021) gives sets exactly one method,
 * `union`; its tests check dir(set()) == ["union"], so the later methods are not offered.
 */
const methods: Record<string, MethodFn> = {
  union: (t, self, args, kwargs) => {
    positional("union", args, kwargs, 1, 1);
    const out = new StarSet(recv(self).elems());
    for (const e of iterableArg("union", args[0] as Value)) out.add(e);
    checkCollectionSize(t, out.len());
    return out;
  },
};

defineMethods("set", methods);
