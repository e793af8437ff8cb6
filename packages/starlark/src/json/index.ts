/**
 * The `json` module of go.starlark.net: encode, decode, indent.
 */
import { unpackArgs } from "../library/unpack.js";
import { StarEvalError } from "../values/errors.js";
import { StarModule } from "../values/module.js";
import { Builtin, type Value } from "../values/value.js";
import { jsonDecode } from "./decode.js";
import { jsonEncode } from "./encode.js";
import { jsonIndent } from "./indent.js";

export { jsonDecode } from "./decode.js";
export { jsonEncode, jsonQuote } from "./encode.js";
export { jsonIndent } from "./indent.js";

/** Runs fn, prefixing Starlark errors with the builtin's name as go.starlark.net does. */
function named<T>(name: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StarEvalError && e.kind === "eval") throw new StarEvalError(`${name}: ${e.message}`);
    throw e;
  }
}

function stringParam(fn: string, param: string, v: Value | undefined, dflt: string): string {
  if (v === undefined) return dflt;
  if (typeof v !== "string")
    throw new StarEvalError(`${fn}: for parameter ${param}: got ${typeof v}, want string`);
  return v;
}

const encode = new Builtin("json.encode", (thread, args, kwargs) => {
  const [x] = unpackArgs("json.encode", args, kwargs, ["x"]);
  return named("json.encode", () => jsonEncode(x as Value, thread));
});

const decode = new Builtin("json.decode", (_thread, args, kwargs) => {
  const [x] = unpackArgs("json.decode", args, kwargs, ["x"]);
  const s = stringParam("json.decode", "x", x, "");
  return named("json.decode", () => jsonDecode(s));
});

const indent = new Builtin("json.indent", (thread, args, kwargs) => {
  const [x, prefix, ind] = unpackArgs("json.indent", args, kwargs, ["str", "prefix?", "indent?"]);
  const s = stringParam("json.indent", "str", x, "");
  const p = stringParam("json.indent", "prefix", prefix, "");
  const i = stringParam("json.indent", "indent", ind, "\t");
  return named("json.indent", () => jsonIndent(s, p, i, thread));
});

/** The `json` module value, to be predeclared (or offered via load) by the host. */
export const jsonModule = new StarModule(
  "json",
  new Map<string, Value>([
    ["decode", decode],
    ["encode", encode],
    ["indent", indent],
  ]),
);
