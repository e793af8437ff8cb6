/**
 * json.decode as the newest go.starlark.net reads JSON (lib/json): ints stay ints (of any size),
 * numbers with `.`, `e`, `E`, `+` or `-` after the first character are floats (1e400 is an
 * invalid number), object keys must be strings, and its error texts with byte offsets.
 */
import { parseFloatLiteral } from "../library/parse-number.js";
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { StarList } from "../values/list.js";
import { decodeRuneAt, runeToByteString } from "../values/strings.js";
import { ALLOC, allocSlots, allocString, type Thread } from "../values/thread.js";
import { None, normInt, StarFloat, typeName, type Value } from "../values/value.js";
import { goQuoteRune } from "./quote.js";
import { jsonSyntaxError } from "./scanner.js";

/** Invalid JSON (what `default=` stands in for): "at offset N, msg". */
export class JsonSyntaxError extends StarEvalError {}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

class Decoder {
  i = 0;
  constructor(
    readonly s: string,
    /** Charged for every string, list and dict the decoder builds. */
    readonly thread: Thread | undefined,
  ) {}

  fail(msg: string): never {
    throw new JsonSyntaxError(`at offset ${this.i}, ${msg}`);
  }

  /** Skips white space; whether input remains. */
  skipSpace(): boolean {
    const s = this.s;
    for (; this.i < s.length; this.i++) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
    }
    return false;
  }

  /** The next non-space byte; fails at the end of the input. */
  next(): number {
    if (this.skipSpace()) return this.s.charCodeAt(this.i);
    this.fail("unexpected end of file");
  }

  parse(): Value {
    const b = this.next();
    const s = this.s;
    switch (b) {
      case 0x22: // "
        return this.string();
      case 0x6e: // n
        if (s.startsWith("null", this.i)) {
          this.i += 4;
          return None;
        }
        break;
      case 0x74: // t
        if (s.startsWith("true", this.i)) {
          this.i += 4;
          return true;
        }
        break;
      case 0x66: // f
        if (s.startsWith("false", this.i)) {
          this.i += 5;
          return false;
        }
        break;
      case 0x5b: {
        // [
        const elems: Value[] = [];
        this.i++;
        let c = this.next();
        if (c !== 0x5d) {
          for (;;) {
            elems.push(this.parse());
            c = this.next();
            if (c !== 0x2c) {
              if (c !== 0x5d) this.fail(`got ${goQuoteRune(c)}, want ',' or ']'`);
              break;
            }
            this.i++;
          }
        }
        this.i++;
        allocSlots(this.thread, elems.length);
        return new StarList(elems);
      }
      case 0x7b: {
        // {
        const dict = new StarDict();
        this.thread?.alloc(ALLOC.header);
        this.i++;
        let c = this.next();
        if (c !== 0x7d) {
          for (;;) {
            const key = this.parse();
            if (typeof key !== "string") this.fail(`got ${typeName(key)} for object key, want string`);
            c = this.next();
            if (c !== 0x3a) this.fail(`after object key, got ${goQuoteRune(c)}, want ':' `);
            this.i++;
            dict.setKey(key, this.parse(), this.thread);
            c = this.next();
            if (c !== 0x2c) {
              if (c !== 0x7d) this.fail(`in object, got ${goQuoteRune(c)}, want ',' or '}'`);
              break;
            }
            this.i++;
          }
        }
        this.i++;
        return dict;
      }
      default:
        if (isDigit(b) || b === 0x2d) return this.number();
    }
    this.fail(`unexpected character ${goQuoteRune(b)}`);
  }

  /** A string literal: its text as is, unless it has escapes or non-ASCII bytes (then Go's json.Unmarshal). */
  string(): string {
    const s = this.s;
    let safe = true;
    let closed = false;
    let j = this.i + 1;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 0x5c) {
        safe = false;
        j++;
      } else if (c === 0x22) {
        closed = true;
        j++;
        break;
      } else if (c >= 0x80) {
        safe = false;
      }
    }
    if (!closed) this.fail("unclosed string literal");
    const literal = s.slice(this.i, j);
    this.i = j;
    allocString(this.thread, literal.length - 2);
    if (safe) return literal.slice(1, -1);
    const err = jsonSyntaxError(literal);
    if (err !== undefined) this.fail(err);
    return unquote(literal);
  }

  number(): Value {
    const s = this.s;
    let float = false;
    let j = this.i + 1;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (isDigit(c)) continue;
      if (c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) float = true;
      else break;
    }
    const num = s.slice(this.i, j);
    this.i = j;
    // Unlike most C-like languages, JSON disallows a leading zero before a digit.
    const digits = num[0] === "-" ? num.slice(1) : num;
    if (digits === "" || (digits[0] === "0" && digits.length > 1 && isDigit(digits.charCodeAt(1)))) {
      this.fail(`invalid number: ${num}`);
    }
    if (float) {
      const r = parseFloatLiteral(num);
      if (!r.ok) this.fail(`invalid number: ${num}`);
      return new StarFloat(r.value);
    }
    if (!/^-?[0-9]+$/.test(num)) this.fail(`invalid number: ${num}`);
    const n = Number(num);
    return Number.isSafeInteger(n) ? n || 0 : normInt(BigInt(num));
  }
}

/** Four hex digits at s[i..i+4] as a number, or -1 (Go's getu4 after the "\u"). */
function hex4(s: string, i: number): number {
  const h = s.slice(i, i + 4);
  return /^[0-9a-fA-F]{4}$/.test(h) ? Number.parseInt(h, 16) : -1;
}

/**
 * The text of a valid JSON string literal, as Go's encoding/json unquotes it: escapes decoded,
 * a \u surrogate pair combined and a lone surrogate turned into U+FFFD, and each byte of invalid
 * UTF-8 turned into U+FFFD.
 */
function unquote(lit: string): string {
  const s = lit.slice(1, -1);
  let out = "";
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) {
      const e = s[i + 1] as string;
      i += 2;
      switch (e) {
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          let r = hex4(s, i);
          i += 4;
          if (r >= 0xd800 && r < 0xe000) {
            const lo = s.startsWith("\\u", i) ? hex4(s, i + 2) : -1;
            if (r < 0xdc00 && lo >= 0xdc00 && lo < 0xe000) {
              r = 0x10000 + ((r - 0xd800) << 10) + (lo - 0xdc00);
              i += 6;
            } else {
              r = 0xfffd;
            }
          }
          out += runeToByteString(r);
          break;
        }
        default:
          out += e; // \" \\ \/
      }
      continue;
    }
    if (c < 0x80) {
      out += s[i];
      i++;
      continue;
    }
    // Copy a valid UTF-8 sequence, or write U+FFFD for a byte that starts none.
    const { rune, size } = decodeRuneAt(s, i);
    out += rune === 0xfffd && size === 1 ? "\xef\xbf\xbd" : s.slice(i, i + size);
    i += size;
  }
  return out;
}

/** Decodes a JSON byte string into Starlark values; throws JsonSyntaxError for invalid JSON. */
export function jsonDecode(s: string, thread?: Thread): Value {
  const d = new Decoder(s, thread);
  let v: Value;
  try {
    v = d.parse();
  } catch (e) {
    // Absurd nesting exhausts the JS stack; report it as a decoding error.
    if (e instanceof RangeError) throw new JsonSyntaxError("nesting too deep");
    throw e;
  }
  if (d.skipSpace()) d.fail(`unexpected character ${goQuoteRune(s.charCodeAt(d.i))} after value`);
  return v;
}
