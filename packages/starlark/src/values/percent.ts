/**
 * The string % operator with go.starlark.net's conversions and error texts.
 */

import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { formatFloatE, formatFloatF, formatFloatG } from "./float-format.js";
import { floatToInt, type Int } from "./int.js";
import { StarTuple } from "./list.js";
import { registerPercentFormat } from "./ops.js";
import { repr, str } from "./repr.js";
import { flatten, runeCount, runeToByteString } from "./strings.js";
import { checkStringLength, type Thread } from "./thread.js";
import { StarFloat, typeName, type Value } from "./value.js";

function intText(v: Int, radix: number, upper: boolean): string {
  const s = v.toString(radix);
  return upper ? s.toUpperCase() : s;
}

function asIntForFormat(verb: string, arg: Value): Int {
  if (typeof arg === "number" || typeof arg === "bigint") return arg;
  if (arg instanceof StarFloat) return floatToInt(arg.value);
  if (typeof arg === "boolean")
    throw new StarEvalError(`%${verb} format requires integer: cannot convert bool to int`);
  throw new StarEvalError(`%${verb} format requires integer: ${typeName(arg)}`);
}

function asFloatForFormat(verb: string, arg: Value): number {
  if (arg instanceof StarFloat) return arg.value;
  if (typeof arg === "number") return arg;
  if (typeof arg === "bigint") return Number(arg);
  throw new StarEvalError(
    `%${verb} format requires float, not ${typeName(arg) === "string" ? "str" : typeName(arg)}`,
  );
}

/** format % arg. */
export function percentFormat(format: string, arg: Value, thread?: Thread): string {
  let args: readonly Value[];
  let mapping: StarDict | undefined;
  if (arg instanceof StarTuple) args = arg.elems;
  else {
    args = [arg];
    if (arg instanceof StarDict) mapping = arg;
  }
  // Fast path for the very common "prefix%dsuffix" / "%s" shapes with one argument.
  if (args.length === 1 && mapping === undefined) {
    const i = format.indexOf("%");
    if (i >= 0 && format.indexOf("%", i + 2) < 0 && i + 1 < format.length) {
      const verb = format[i + 1];
      const a = args[0] as Value;
      if ((verb === "d" || verb === "i") && typeof a === "number") {
        return flatten(format.slice(0, i) + String(a) + format.slice(i + 2));
      }
      if (verb === "s" && typeof a === "string") {
        const out = format.slice(0, i) + a + format.slice(i + 2);
        checkStringLength(thread, out.length);
        return flatten(out);
      }
    }
  }
  let argIndex = 0;
  let out = "";
  let start = 0;
  for (let i = 0; i < format.length; i++) {
    if (format.charCodeAt(i) !== 0x25 /* % */) continue;
    out += format.slice(start, i);
    i++;
    if (i >= format.length) throw new StarEvalError("incomplete format");
    // %(name)s
    let value: Value | undefined;
    if (format[i] === "(") {
      const close = format.indexOf(")", i);
      if (close < 0) throw new StarEvalError("incomplete format key");
      const key = format.slice(i + 1, close);
      if (mapping === undefined) throw new StarEvalError("format requires a mapping");
      value = mapping.get(key);
      if (value === undefined) throw new StarEvalError(`key ${repr(key)} not found`);
      i = close + 1;
      if (i >= format.length) throw new StarEvalError("incomplete format");
    }
    const verb = format[i] as string;
    if (verb === "%") {
      out += "%";
      start = i + 1;
      continue;
    }
    if (value === undefined) {
      if (argIndex >= args.length) throw new StarEvalError("not enough arguments for format string");
      value = args[argIndex++] as Value;
    }
    switch (verb) {
      case "s":
        out += str(value, thread);
        break;
      case "r":
        out += repr(value, thread);
        break;
      case "d":
      case "i":
        out += intText(asIntForFormat(verb, value), 10, false);
        break;
      case "o":
        out += intText(asIntForFormat(verb, value), 8, false);
        break;
      case "x":
        out += intText(asIntForFormat(verb, value), 16, false);
        break;
      case "X":
        out += intText(asIntForFormat(verb, value), 16, true);
        break;
      case "e":
        out += formatFloatE(asFloatForFormat(verb, value));
        break;
      case "E":
        out += upperExponent(formatFloatE(asFloatForFormat(verb, value)));
        break;
      case "f":
      case "F":
        out += formatFloatF(asFloatForFormat(verb, value));
        break;
      case "g":
        out += formatFloatG(asFloatForFormat(verb, value));
        break;
      case "G":
        out += upperExponent(formatFloatG(asFloatForFormat(verb, value)));
        break;
      case "c":
        out += percentChar(value);
        break;
      default:
        throw new StarEvalError(`unknown conversion %${verb}`);
    }
    if (out.length > 4096) checkStringLength(thread, out.length);
    start = i + 1;
  }
  if (argIndex < args.length && mapping === undefined) {
    throw new StarEvalError("too many arguments for format string");
  }
  out += format.slice(start);
  checkStringLength(thread, out.length);
  return flatten(out);
}

/** %E/%G: the exponent marker is upper case; inf/nan keep go.starlark.net's spelling. */
function upperExponent(s: string): string {
  return s.replace("e", "E");
}

function percentChar(v: Value): string {
  if (typeof v === "string") {
    if (runeCount(v) !== 1) throw new StarEvalError(`%c format requires a single-character string`);
    return v;
  }
  if (typeof v === "number" || typeof v === "bigint") {
    if (v < 0 || v > 0x10ffff) {
      // Surrogates are accepted and written as U+FFFD, as Go's WriteRune does.
      throw new StarEvalError(`%c format requires a valid Unicode code point, got ${v}`);
    }
    return runeToByteString(Number(v));
  }
  throw new StarEvalError(`%c format requires int or single-character string, not ${typeName(v)}`);
}

registerPercentFormat(percentFormat);
