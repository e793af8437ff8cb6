/**
 * repr and str as go.starlark.net prints values. Results are byte strings.
 */
import { StarBytes } from "./bytes.js";
import { StarDict } from "./dict.js";
import { StarEvalError } from "./errors.js";
import { formatFloatG } from "./float-format.js";
import { StarList, StarTuple } from "./list.js";
import { isRange, rangeRepr } from "./range.js";
import { StarSet } from "./set.js";
import { decodeRuneAt } from "./strings.js";
import { allocString, checkStringLength, type Thread } from "./thread.js";
import { Builtin, None, StarFloat, type StarValue, type Value } from "./value.js";

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const HEX = "0123456789abcdef";

function hex2(b: number): string {
  return `\\x${HEX[b >> 4]}${HEX[b & 15]}`;
}

/** Go's strconv.Quote applied to the bytes of s (with `quote` as delimiter). */
export function quoteString(s: string, quote = '"'): string {
  let out = quote;
  let start = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x5c && c !== quote.charCodeAt(0)) {
      i++;
      continue;
    }
    out += s.slice(start, i);
    if (c < 0x80) {
      switch (c) {
        case 0x07:
          out += "\\a";
          break;
        case 0x08:
          out += "\\b";
          break;
        case 0x0c:
          out += "\\f";
          break;
        case 0x0a:
          out += "\\n";
          break;
        case 0x0d:
          out += "\\r";
          break;
        case 0x09:
          out += "\\t";
          break;
        case 0x0b:
          out += "\\v";
          break;
        case 0x5c:
          out += "\\\\";
          break;
        default:
          out += c === quote.charCodeAt(0) ? `\\${String.fromCharCode(c)}` : hex2(c);
      }
      i++;
    } else {
      const { rune, size } = decodeRuneAt(s, i);
      if (rune === 0xfffd && size === 1) {
        out += hex2(c);
      } else if (PRINTABLE.test(String.fromCodePoint(rune))) {
        out += s.slice(i, i + size);
      } else if (rune < 0x10000) {
        out += `\\u${rune.toString(16).padStart(4, "0")}`;
      } else {
        out += `\\U${rune.toString(16).padStart(8, "0")}`;
      }
      i += size;
    }
    start = i;
  }
  return out + s.slice(start) + quote;
}

/** Collects output pieces and enforces the string size limit as they arrive. */
class ReprBuffer {
  readonly parts: string[] = [];
  private size = 0;
  constructor(readonly thread: Thread | undefined) {}
  push(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 4096) checkStringLength(this.thread, this.size);
  }
}

/** repr(v) as a byte string (the thread, when given, supplies the size limit). */
export function repr(v: Value, thread?: Thread): string {
  switch (typeof v) {
    case "string":
      return quoteString(v);
    case "number":
      return String(v);
    case "bigint":
      return v.toString();
    case "boolean":
      return v ? "True" : "False";
  }
  if (v instanceof StarFloat) return formatFloatG(v.value);
  if (v === None) return "None";
  const out = new ReprBuffer(thread);
  try {
    writeValue(out, v, []);
  } catch (e) {
    if (e instanceof RangeError) throw new StarEvalError("repr: value is nested too deeply");
    throw e;
  }
  const s = out.parts.join("");
  allocString(thread, s.length);
  return s;
}

/**
 * A value as text, go.starlark.net's `AsString, else writeValue`: a string is itself, anything
 * else (bytes too) its repr. What print, fail, %s and str.format's {} write. (The str()
 * built-in differs only for bytes, which it decodes.)
 */
export function str(v: Value, thread?: Thread): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  return repr(v, thread);
}

function writeValue(out: ReprBuffer, v: Value, path: StarValue[]): void {
  if (typeof v !== "object" || v instanceof StarFloat || v === None) {
    out.push(repr(v));
    return;
  }
  if (v instanceof StarList) {
    if (path.includes(v)) {
      out.push("[...]");
      return;
    }
    path.push(v);
    out.push("[");
    writeElems(out, v.elems, path);
    out.push("]");
    path.pop();
    return;
  }
  if (v instanceof StarTuple) {
    out.push("(");
    writeElems(out, v.elems, path);
    if (v.elems.length === 1) out.push(",");
    out.push(")");
    return;
  }
  if (v instanceof StarDict) {
    if (path.includes(v)) {
      out.push("{...}");
      return;
    }
    path.push(v);
    out.push("{");
    let first = true;
    for (const [k, val] of v.ht.entries()) {
      if (!first) out.push(", ");
      first = false;
      writeValue(out, k, path);
      out.push(": ");
      writeValue(out, val, path);
    }
    out.push("}");
    path.pop();
    return;
  }
  if (v instanceof StarSet) {
    out.push("set([");
    writeElems(out, v.elems(), path);
    out.push("])");
    return;
  }
  if (isRange(v)) {
    out.push(rangeRepr(v));
    return;
  }
  if (v instanceof StarBytes) {
    out.push(`b${quoteString(v.data)}`);
    return;
  }
  if (v instanceof Builtin) {
    if (v.receiver !== undefined) {
      const t = typeof v.receiver === "object" ? (v.receiver as StarValue).type : typeOfPrimitive(v.receiver);
      out.push(`<built-in method ${v.name} of ${t} value>`);
    } else {
      out.push(`<built-in function ${v.name}>`);
    }
    return;
  }
  out.push(typeof v.repr === "function" ? v.repr(out.thread) : `<${v.type}>`);
}

function typeOfPrimitive(v: Value): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    default:
      return "int";
  }
}

function writeElems(out: ReprBuffer, elems: readonly Value[], path: StarValue[]): void {
  for (let i = 0; i < elems.length; i++) {
    if (i > 0) out.push(", ");
    writeValue(out, elems[i] as Value, path);
  }
}
