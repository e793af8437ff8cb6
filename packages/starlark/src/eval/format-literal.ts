/**
 * `"literal" % args` with the format parsed once at compile time. Scriptlets build keys and
 * messages this way in their hottest loops ("key%d" % i), and re-scanning the format on
 * every evaluation was a measurable share of dict- and string-heavy programs.
 *
 * Only formats made of plain text and %s / %d / %i conversions are pre-parsed, and only
 * arguments whose conversion is trivial (a string for %s, an int held as a JS number for any
 * of them, a bool for %s) take the inline path. Everything else, including every error case,
 * goes to the value layer's `%`, so the results and error texts are exactly the same.
 */
import type { Position } from "../syntax/position.js";
import { ALLOC, flatten, StarTuple, type Value } from "../values/index.js";
import { slowBinary } from "./binary.js";
import type { ExprFn } from "./frame.js";

interface ParsedFormat {
  /** Literal text around the conversions: texts.length === verbs.length + 1. */
  texts: string[];
  /** true for %s (accepts strings and bools inline), false for %d / %i. */
  isString: boolean[];
}

/** Splits the format, or returns undefined when it uses anything beyond %s / %d / %i. */
export function parseSimpleFormat(format: string): ParsedFormat | undefined {
  const texts: string[] = [];
  const isString: boolean[] = [];
  let start = 0;
  for (let i = format.indexOf("%"); i >= 0; i = format.indexOf("%", start)) {
    const verb = format[i + 1];
    if (verb !== "s" && verb !== "d" && verb !== "i") return undefined;
    texts.push(format.slice(start, i));
    isString.push(verb === "s");
    start = i + 2;
  }
  texts.push(format.slice(start));
  return { texts, isString };
}

/** The decimal text of v under a simple conversion, or undefined when the value layer must convert it. */
function convert(v: Value, isString: boolean): string | undefined {
  if (typeof v === "number") return String(v); // a JS number is always an int (floats are StarFloat)
  if (isString) {
    if (typeof v === "string") return v;
    if (typeof v === "boolean") return v ? "True" : "False";
  }
  return undefined;
}

/**
 * Compiles `format % y` for a format accepted by parseSimpleFormat. `elems`: the compiled
 * elements when y is a tuple display, so that `"%s:%d" % (a, b)` needs no tuple at all
 * (the loop that builds 100,000 such lines spent a fifth of its allocations on tuples).
 */
export function compileFormatLiteral(
  format: string,
  parsed: ParsedFormat,
  y: ExprFn,
  pos: Position,
  elems?: ExprFn[],
): ExprFn {
  const { texts, isString } = parsed;
  const n = isString.length;
  const head = texts[0] as string;
  if (elems !== undefined && elems.length === n && (n === 2 || n === 3)) {
    return compileTupleDisplayFormat(format, parsed, elems, pos);
  }
  if (n === 1) {
    const tail = texts[1] as string;
    const str = isString[0] as boolean;
    return (fr) => {
      const b = y(fr);
      // A 1-tuple is unpacked; any other tuple is an argument-count error left to the general path.
      const v = b instanceof StarTuple ? (b.elems.length === 1 ? b.elems[0] : undefined) : b;
      if (v !== undefined) {
        const s = convert(v, str);
        if (s !== undefined) {
          const out = head + s + tail;
          if (out.length <= fr.thread.limits.maxStringLength) {
            fr.thread.alloc(ALLOC.header + out.length);
            return flatten(out);
          }
        }
      }
      return slowBinary(fr, "%", format, b, pos);
    };
  }
  return (fr) => {
    const b = y(fr);
    if (b instanceof StarTuple && b.elems.length === n) {
      const elems = b.elems;
      let out = head;
      let i = 0;
      for (; i < n; i++) {
        const s = convert(elems[i] as Value, isString[i] as boolean);
        if (s === undefined) break;
        out += s + (texts[i + 1] as string);
      }
      if (i === n && out.length <= fr.thread.limits.maxStringLength) {
        fr.thread.alloc(ALLOC.header + out.length);
        return flatten(out);
      }
    }
    return slowBinary(fr, "%", format, b, pos);
  };
}

/**
 * `format % (a, b)` and `format % (a, b, c)`: the elements are evaluated in order, exactly as
 * for the tuple, and only a value the inline path cannot convert builds the tuple for the
 * general `%` (same result, same error).
 */
function compileTupleDisplayFormat(
  format: string,
  parsed: ParsedFormat,
  elems: ExprFn[],
  pos: Position,
): ExprFn {
  const [head, t1, t2, t3] = parsed.texts as [string, string, string, string | undefined];
  const [s0, s1, s2] = parsed.isString as [boolean, boolean, boolean | undefined];
  const [e0, e1, e2] = elems as [ExprFn, ExprFn, ExprFn | undefined];
  if (e2 === undefined) {
    return (fr) => {
      const a = e0(fr);
      const b = e1(fr);
      const ca = convert(a, s0);
      const cb = convert(b, s1);
      if (ca !== undefined && cb !== undefined) {
        const out = head + ca + t1 + cb + t2;
        if (out.length <= fr.thread.limits.maxStringLength) {
          fr.thread.alloc(ALLOC.header + out.length);
          return flatten(out);
        }
      }
      return slowBinary(fr, "%", format, new StarTuple([a, b]), pos);
    };
  }
  const last = s2 as boolean;
  const tail = t3 as string;
  return (fr) => {
    const a = e0(fr);
    const b = e1(fr);
    const c = e2(fr);
    const ca = convert(a, s0);
    const cb = convert(b, s1);
    const cc = convert(c, last);
    if (ca !== undefined && cb !== undefined && cc !== undefined) {
      const out = head + ca + t1 + cb + t2 + cc + tail;
      if (out.length <= fr.thread.limits.maxStringLength) {
        fr.thread.alloc(ALLOC.header + out.length);
        return flatten(out);
      }
    }
    return slowBinary(fr, "%", format, new StarTuple([a, b, c]), pos);
  };
}
