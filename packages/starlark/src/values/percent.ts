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
import { decodeRuneAt, flatten, runeToByteString } from "./strings.js";
import { allocString, checkStringLength, type Thread } from "./thread.js";
import { StarFloat, typeName, type Value } from "./value.js";

function intText(v: Int, radix: number, upper: boolean): string {
  const s = v.toString(radix);
  return upper ? s.toUpperCase() : s;
}

/** go's NumberToInt for %d/%i/%o/%x/%X: ints as they are, floats truncated, anything else an error. */
function asIntForFormat(verb: string, arg: Value): Int {
  if (typeof arg === "number" || typeof arg === "bigint") return arg;
  try {
    if (arg instanceof StarFloat) return floatToInt(arg.value);
  } catch (e) {
    throw new StarEvalError(`%${verb} format requires integer: ${(e as Error).message}`);
  }
  throw new StarEvalError(`%${verb} format requires integer: cannot convert ${typeName(arg)} to int`);
}

/** go's AsFloat: ints and floats (not bools). */
function asFloatForFormat(verb: string, arg: Value): number {
  if (arg instanceof StarFloat) return arg.value;
  if (typeof arg === "number") return arg;
  if (typeof arg === "bigint") return Number(arg);
  throw new StarEvalError(`%${verb} format requires float, not ${typeName(arg)}`);
}

/**
 * format % arg, as go.starlark.net's interpolate: a tuple supplies the arguments in order, any
 * other value is the one argument; `%(key)s` takes its value from a mapping but still counts as
 * an argument, so mixing `%(key)s` with `%s` is "not enough arguments for format string".
 */
export function percentFormat(format: string, arg: Value, thread?: Thread): string {
  const tuple = arg instanceof StarTuple ? arg.elems : undefined;
  const nargs = tuple === undefined ? 1 : tuple.length;
  const mapping = arg instanceof StarDict ? arg : undefined;
  // Fast path for the very common "prefix%dsuffix" / "%s" shapes with one argument.
  if (nargs === 1 && mapping === undefined) {
    const i = format.indexOf("%");
    if (i >= 0 && format.indexOf("%", i + 2) < 0 && i + 1 < format.length) {
      const verb = format[i + 1];
      const a = (tuple === undefined ? arg : tuple[0]) as Value;
      if ((verb === "d" || verb === "i") && typeof a === "number") {
        const out = format.slice(0, i) + String(a) + format.slice(i + 2);
        allocString(thread, out.length);
        return flatten(out);
      }
      if (verb === "s" && typeof a === "string") {
        const out = format.slice(0, i) + a + format.slice(i + 2);
        allocString(thread, out.length);
        return flatten(out);
      }
    }
  }
  let index = 0;
  let out = "";
  let rest = format;
  for (;;) {
    const i = rest.indexOf("%");
    if (i < 0) {
      out += rest;
      break;
    }
    out += rest.slice(0, i);
    rest = rest.slice(i + 1);
    if (rest[0] === "%") {
      out += "%";
      rest = rest.slice(1);
      continue;
    }
    let value: Value;
    if (rest[0] === "(") {
      const close = rest.indexOf(")");
      if (close < 0) throw new StarEvalError("incomplete format key");
      const key = rest.slice(1, close);
      if (mapping === undefined) throw new StarEvalError("format requires a mapping");
      let found: Value | undefined;
      try {
        found = mapping.get(key);
      } catch {
        found = undefined; // upstream ignores the lookup error and reports the key missing
      }
      if (found === undefined) throw new StarEvalError(`key not found: ${key}`);
      value = found;
      rest = rest.slice(close + 1);
    } else {
      if (index >= nargs) throw new StarEvalError("not enough arguments for format string");
      value = (tuple === undefined ? arg : tuple[index]) as Value;
    }
    if (rest === "") throw new StarEvalError("incomplete format");
    const verb = rest[0] as string;
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
      case "%":
        out += "%";
        break;
      default:
        throw new StarEvalError(`unknown conversion %${goVerb(rest)}`);
    }
    if (out.length > 4096) checkStringLength(thread, out.length);
    rest = rest.slice(1);
    index++;
  }
  if (index < nargs && mapping === undefined) throw new StarEvalError("too many arguments for format string");
  allocString(thread, out.length);
  return flatten(out);
}

/** go's %c of the byte after '%' (a byte >= 0x80 prints as the Latin-1 character of that value). */
function goVerb(rest: string): string {
  const c = rest.charCodeAt(0);
  return c < 0x80 ? (rest[0] as string) : runeToByteString(c);
}

/** %E/%G: the exponent marker is upper case; inf/nan keep go.starlark.net's spelling. */
function upperExponent(s: string): string {
  return s.replace("e", "E");
}

/** %c: an int code point or a one-character string (an invalid byte counts as U+FFFD). */
function percentChar(v: Value): string {
  if (typeof v === "string") {
    const { rune, size } = v.length === 0 ? { rune: 0, size: 0 } : decodeRuneAt(v, 0);
    if (size !== v.length || v.length === 0)
      throw new StarEvalError("%c format requires a single-character string");
    return runeToByteString(rune);
  }
  if (typeof v === "number" || typeof v === "bigint") {
    if (typeof v === "bigint" || v < 0 || v > 0x10ffff) {
      // Surrogates are accepted and written as U+FFFD, as Go's WriteRune does.
      throw new StarEvalError(`%c format requires a valid Unicode code point, got ${v}`);
    }
    return runeToByteString(v);
  }
  throw new StarEvalError(`%c format requires int or single-character string, not ${typeName(v)}`);
}

registerPercentFormat(percentFormat);
