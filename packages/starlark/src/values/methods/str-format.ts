/**
 * str.format with go.starlark.net's subset of Python's format syntax and its error texts.
 *
 * A format string is parsed once into literal text and replacement fields and the result kept
 * in a small cache: programs call `.format` on the same few literals in loops (building 20,000
 * messages with one format string parsed it 20,000 times, slicing every field name).
 */
import { StarEvalError } from "../errors.js";
import { quoteString, repr, str } from "../repr.js";
import { flatten } from "../strings.js";
import { allocString, checkStringLength, type Thread } from "../thread.js";
import type { Value } from "../value.js";

/** A replacement field `{name!conv:spec}` as written (conv defaults to "s"). */
interface Field {
  readonly name: string;
  readonly conv: string;
  readonly spec: string;
  /** The argument position when `name` is a decimal number, else -1. */
  readonly num: number;
}

/** A syntax error met at this point of the format string (raised when reached). */
interface FormatError {
  readonly error: string;
}

/**
 * A parsed format string: literal text, fields and at most one trailing syntax error, in the
 * order go.starlark.net's string_format meets them while it formats left to right; fields are
 * resolved against the arguments at each call, so errors come in exactly upstream's order.
 */
type ParsedFormat = readonly (string | Field | FormatError)[];

/** Parsed formats by format string; cleared when full (a program has few distinct formats). */
const cache = new Map<string, ParsedFormat>();
const CACHE_MAX = 256;
/** Longer format strings are parsed at each call rather than kept. */
const CACHE_MAX_LENGTH = 1024;

/** go's decimal(): digits only, within an int64; -1 otherwise. */
function decimal(name: string): number {
  if (!/^[0-9]+$/.test(name)) return -1;
  if (name.length > 15 && BigInt(name) > 2n ** 63n - 1n) return -1;
  return Number(name);
}

function parseFormat(format: string): ParsedFormat {
  const pieces: (string | Field | FormatError)[] = [];
  let rest = format;
  for (;;) {
    const open = rest.indexOf("{");
    let literal = open < 0 ? rest : rest.slice(0, open);
    // In literal text "}}" stands for "}"; a lone "}" is an error.
    let text = "";
    for (;;) {
      const j = literal.indexOf("}");
      if (j < 0) {
        text += literal;
        break;
      }
      if (literal.length === j + 1 || literal[j + 1] !== "}") {
        if (text !== "") pieces.push(text);
        pieces.push({ error: "format: single '}' in format" });
        return pieces;
      }
      text += literal.slice(0, j + 1);
      literal = literal.slice(j + 2);
    }
    if (text !== "") pieces.push(text);
    if (open < 0) return pieces;
    if (rest[open + 1] === "{") {
      pieces.push("{");
      rest = rest.slice(open + 2);
      continue;
    }
    rest = rest.slice(open + 1);
    const close = rest.indexOf("}");
    if (close < 0) {
      pieces.push({ error: "format: unmatched '{' in format" });
      return pieces;
    }
    const field = rest.slice(0, close);
    rest = rest.slice(close + 1);
    let name: string;
    let conv = "s";
    let spec = "";
    const bang = field.indexOf("!");
    if (bang < 0) {
      const colon = field.indexOf(":");
      name = colon < 0 ? field : field.slice(0, colon);
      if (colon >= 0) spec = field.slice(colon + 1);
    } else {
      name = field.slice(0, bang);
      const convSpec = field.slice(bang + 1);
      const colon = convSpec.indexOf(":");
      conv = colon < 0 ? convSpec : convSpec.slice(0, colon);
      if (colon >= 0) spec = convSpec.slice(colon + 1);
    }
    pieces.push({ name, conv, spec, num: name === "" ? -1 : decimal(name) });
  }
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

/** str.format, as go.starlark.net's string_format (its texts start "format: " but one). */
export function formatString(
  thread: Thread,
  format: string,
  args: Value[],
  kwargs: [string, Value][],
): string {
  const pieces = parsed(format);
  let out = "";
  let auto = false;
  let manual = false;
  let index = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as string | Field | FormatError;
    if (typeof piece === "string") {
      out += piece;
      continue;
    }
    if ("error" in piece) throw new StarEvalError(piece.error);
    let arg: Value | undefined;
    const name = piece.name;
    if (name === "") {
      if (manual) {
        throw new StarEvalError(
          "format: cannot switch from manual field specification to automatic field numbering",
        );
      }
      auto = true;
      if (index >= args.length) throw new StarEvalError("format: tuple index out of range");
      arg = args[index++] as Value;
    } else if (piece.num >= 0) {
      if (auto) {
        throw new StarEvalError(
          "format: cannot switch from automatic field numbering to manual field specification",
        );
      }
      manual = true;
      if (piece.num >= args.length) throw new StarEvalError("format: tuple index out of range");
      arg = args[piece.num] as Value;
    } else {
      for (const [k, v] of kwargs) {
        if (k === name) {
          arg = v;
          break;
        }
      }
      if (arg === undefined) {
        // Starlark has no x.y, a[i] or nested fields in replacement fields.
        if (name.includes(".")) {
          throw new StarEvalError(
            `format: attribute syntax x.y is not supported in replacement fields: ${name}`,
          );
        }
        if (name.includes("[")) {
          throw new StarEvalError(
            `format: element syntax a[i] is not supported in replacement fields: ${name}`,
          );
        }
        if (name.includes("{")) throw new StarEvalError("format: nested replacement fields not supported");
        throw new StarEvalError(`format: keyword ${name} not found`);
      }
    }
    if (piece.spec !== "") {
      throw new StarEvalError(`format spec features not supported in replacement fields: ${piece.spec}`);
    }
    if (piece.conv === "s") out += str(arg, thread);
    else if (piece.conv === "r") out += repr(arg, thread);
    else throw new StarEvalError(`format: unknown conversion ${quoteString(piece.conv)}`);
    if (out.length > 4096) checkStringLength(thread, out.length);
  }
  allocString(thread, out.length);
  return flatten(out);
}
