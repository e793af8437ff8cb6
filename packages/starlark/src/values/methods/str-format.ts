/**
 * str.format with go.starlark.net's subset of Python's format syntax and its error texts.
 *
 * A format string is parsed once into literal text and replacement fields and the result kept
 * in a small cache: programs call `.format` on the same few literals in loops (building 20,000
 * messages with one format string parsed it 20,000 times, slicing every field name).
 */
import { StarEvalError } from "../errors.js";
import { repr, str } from "../repr.js";
import { flatten } from "../strings.js";
import { checkStringLength, type Thread } from "../thread.js";
import type { Value } from "../value.js";

/** A replacement field: a positional argument (`index` >= 0) or a keyword argument (`name`). */
interface Field {
  readonly index: number;
  readonly name: string;
  readonly repr: boolean;
}

/**
 * A parsed format string: literal text and fields in order. `error` is the first syntax error,
 * raised after the pieces before it are formatted, so that argument errors in earlier fields
 * still win, as when the string is interpreted left to right.
 */
interface ParsedFormat {
  readonly pieces: readonly (string | Field)[];
  readonly error: string | undefined;
}

/** Parsed formats by format string; cleared when full (a program has few distinct formats). */
const cache = new Map<string, ParsedFormat>();
const CACHE_MAX = 256;
/** Longer format strings are parsed at each call rather than kept. */
const CACHE_MAX_LENGTH = 1024;

function parseFormat(format: string): ParsedFormat {
  const pieces: (string | Field)[] = [];
  let text = "";
  let auto = 0;
  let mode: "none" | "auto" | "manual" = "none";
  let i = 0;
  const n = format.length;
  const fail = (error: string): ParsedFormat => {
    if (text !== "") pieces.push(text);
    return { pieces, error };
  };
  while (i < n) {
    const open = format.indexOf("{", i);
    const close = format.indexOf("}", i);
    if (close >= 0 && (open < 0 || close < open)) {
      // literal '}' must be doubled
      if (format[close + 1] !== "}") return fail("single '}' in format");
      text += format.slice(i, close + 1);
      i = close + 2;
      continue;
    }
    if (open < 0) {
      text += format.slice(i);
      break;
    }
    text += format.slice(i, open);
    if (format[open + 1] === "{") {
      text += "{";
      i = open + 2;
      continue;
    }
    const end = format.indexOf("}", open + 1);
    if (end < 0) return fail("unmatched '{' in format");
    const field = format.slice(open + 1, end);
    if (field.includes("{")) return fail("nested replacement fields not supported");
    i = end + 1;

    let name = field;
    let conv = "s";
    const colon = name.indexOf(":");
    if (colon >= 0) {
      const spec = name.slice(colon + 1);
      name = name.slice(0, colon);
      if (spec !== "") return fail(`format spec features not supported in replacement fields: ${spec}`);
    }
    const bang = name.indexOf("!");
    if (bang >= 0) {
      conv = name.slice(bang + 1);
      name = name.slice(0, bang);
      if (conv !== "r" && conv !== "s") return fail(`unknown conversion "${conv}"`);
    }

    let index = -1;
    if (name === "") {
      if (mode === "manual") {
        return fail("cannot switch from manual field specification to automatic field numbering");
      }
      mode = "auto";
      index = auto++;
    } else if (/^[0-9]+$/.test(name)) {
      if (mode === "auto") {
        return fail("cannot switch from automatic field numbering to manual field specification");
      }
      mode = "manual";
      index = Number.parseInt(name, 10);
    } else {
      if (name.includes(".")) return fail("attribute syntax x.y is not supported in replacement fields");
      if (name.includes("[")) return fail("element syntax a[i] is not supported in replacement fields");
    }
    if (text !== "") pieces.push(text);
    text = "";
    pieces.push({ index, name, repr: conv === "r" });
  }
  if (text !== "") pieces.push(text);
  return { pieces, error: undefined };
}

function parsed(format: string): ParsedFormat {
  if (format.length > CACHE_MAX_LENGTH) return parseFormat(format);
  let p = cache.get(format);
  if (p === undefined) {
    if (cache.size >= CACHE_MAX) cache.clear();
    p = parseFormat(format);
    cache.set(format, p);
  }
  return p;
}

export function formatString(
  thread: Thread,
  format: string,
  args: Value[],
  kwargs: [string, Value][],
): string {
  const { pieces, error } = parsed(format);
  let out = "";
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string | Field;
    if (typeof piece === "string") {
      out += piece;
      continue;
    }
    let arg: Value;
    if (piece.index >= 0) {
      if (piece.index >= args.length) throw new StarEvalError("tuple index out of range");
      arg = args[piece.index] as Value;
    } else {
      const kw = kwargs.find(([k]) => k === piece.name);
      if (kw === undefined) throw new StarEvalError(`keyword ${piece.name} not found`);
      arg = kw[1];
    }
    out += piece.repr ? repr(arg, thread) : str(arg, thread);
    if (out.length > 4096) checkStringLength(thread, out.length);
  }
  if (error !== undefined) throw new StarEvalError(error);
  checkStringLength(thread, out.length);
  return flatten(out);
}
