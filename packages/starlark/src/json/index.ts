/**
 * The `json` module of the newest go.starlark.net (lib/json): encode, encode_indent, decode
 * (with `default=`), indent, with its argument handling and error texts.
 */
import { StarEvalError } from "../values/errors.js";
import { StarModule } from "../values/module.js";
import { asString, asValue, param, unpackArgs, unpackPositionalArgs } from "../values/unpack.js";
import { Builtin, type Value } from "../values/value.js";
import { JsonSyntaxError, jsonDecode } from "./decode.js";
import { jsonEncode } from "./encode.js";
import { jsonIndent } from "./indent.js";

export { jsonDecode } from "./decode.js";
export { jsonEncode } from "./encode.js";
export { jsonIndent } from "./indent.js";
export { jsonQuote } from "./quote.js";

/** Runs fn, prefixing its Starlark errors with the builtin's name as go.starlark.net does. */
function named<T>(name: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof StarEvalError && e.kind === "eval") throw new StarEvalError(`${name}: ${e.message}`);
    throw e;
  }
}

/** The keyword-only prefix= and indent= of encode_indent and indent. */
function indentOptions(name: string, kwargs: [string, Value][]): [string, string] {
  const [prefix, indent] = unpackArgs(name, [], kwargs, [
    param("prefix?", asString),
    param("indent?", asString),
  ]) as [string | undefined, string | undefined];
  return [prefix ?? "", indent ?? "\t"];
}

const encode = new Builtin("json.encode", (thread, args, kwargs) => {
  const [x] = unpackPositionalArgs("json.encode", args, kwargs, 1, [asValue]) as [Value];
  return named("json.encode", () => jsonEncode(x, thread));
});

const encodeIndent = new Builtin("json.encode_indent", (thread, args, kwargs) => {
  const [prefix, indent] = indentOptions("json.encode_indent", kwargs);
  const [x] = unpackPositionalArgs("json.encode_indent", args, [], 1, [asValue]) as [Value];
  return named("json.encode_indent", () => jsonIndent(jsonEncode(x, thread), prefix, indent, thread));
});

const decode = new Builtin("json.decode", (thread, args, kwargs) => {
  const [x, dflt] = unpackArgs("json.decode", args, kwargs, [param("x", asString), param("default?")]) as [
    string,
    Value | undefined,
  ];
  // x is positional-only upstream, which UnpackArgs cannot say: it rejects it afterwards.
  if (args.length < 1) throw new StarEvalError("json.decode: unexpected keyword argument x");
  try {
    return jsonDecode(x, thread);
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      if (dflt !== undefined) return dflt;
      throw new StarEvalError(`json.decode: ${e.message}`);
    }
    throw e;
  }
});

const indent = new Builtin("json.indent", (thread, args, kwargs) => {
  const [prefix, ind] = indentOptions("json.indent", kwargs);
  const [s] = unpackPositionalArgs("json.indent", args, [], 1, [asString]) as [string];
  return named("json.indent", () => jsonIndent(s, prefix, ind, thread));
});

/** The `json` module value, to be predeclared (or offered via load) by the host. */
export const jsonModule = new StarModule(
  "json",
  new Map<string, Value>([
    ["decode", decode],
    ["encode", encode],
    ["encode_indent", encodeIndent],
    ["indent", indent],
  ]),
);
