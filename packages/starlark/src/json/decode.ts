/** json.decode with go.starlark.net's results (ints stay ints) and error texts. */
import { StarDict } from "../values/dict.js";
import { StarEvalError } from "../values/errors.js";
import { StarList } from "../values/list.js";
import { runeToByteString } from "../values/strings.js";
import { None, normInt, StarFloat, type Value } from "../values/value.js";

/** Go's %q for a single byte/rune, as the error messages show it. */
export function quoteRune(c: string): string {
  if (c === "'") return "'\\''";
  if (c === "\\") return "'\\\\'";
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, "0")}'`;
  return `'${c}'`;
}

export class JsonSyntaxError extends StarEvalError {}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

class Decoder {
  i = 0;
  constructor(readonly s: string) {}

  fail(msg: string): never {
    throw new JsonSyntaxError(`at offset ${this.i}, ${msg}`);
  }

  skipSpace(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else break;
    }
  }

  /** Next non-space character, or fails at end of input. */
  peek(): string {
    this.skipSpace();
    if (this.i >= this.s.length) this.fail("unexpected end of file");
    return this.s[this.i] as string;
  }

  value(): Value {
    const c = this.peek();
    const s = this.s;
    switch (c) {
      case "n":
        return this.literal("null", None);
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case '"':
        return this.string();
      case "[": {
        this.i++;
        const elems: Value[] = [];
        if (this.peek() === "]") {
          this.i++;
          return new StarList(elems);
        }
        for (;;) {
          elems.push(this.value());
          const d = this.peek();
          if (d === ",") {
            this.i++;
            continue;
          }
          if (d === "]") {
            this.i++;
            return new StarList(elems);
          }
          this.fail(`in array, got ${quoteRune(d)}, want ',' or ']'`);
        }
      }
      case "{": {
        this.i++;
        const d = new StarDict();
        if (this.peek() === "}") {
          this.i++;
          return d;
        }
        for (;;) {
          if (this.peek() !== '"') this.fail(`got ${quoteRune(this.peek())}, want string for object key`);
          const key = this.string();
          const colon = this.peek();
          if (colon !== ":") this.fail(`after object key, got ${quoteRune(colon)}, want ':'`);
          this.i++;
          d.setKey(key, this.value());
          const sep = this.peek();
          if (sep === ",") {
            this.i++;
            if (this.peek() === "}") this.fail("unexpected character '}'");
            continue;
          }
          if (sep === "}") {
            this.i++;
            return d;
          }
          this.fail(`in object, got ${quoteRune(sep)}, want ',' or '}'`);
        }
      }
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      let j = this.i;
      while (j < s.length && /[0-9.eE+-]/.test(s[j] as string)) j++;
      const num = s.slice(this.i, j);
      if (!NUMBER.test(num)) this.fail(`invalid number: ${num}`);
      this.i = j;
      if (/[.eE]/.test(num)) return new StarFloat(Number(num));
      const n = Number(num);
      return Number.isSafeInteger(n) ? n || 0 : normInt(BigInt(num));
    }
    this.fail(`unexpected character ${quoteRune(c)}`);
  }

  literal(word: string, v: Value): Value {
    if (!this.s.startsWith(word, this.i))
      this.fail(`unexpected character ${quoteRune(this.s[this.i] as string)}`);
    this.i += word.length;
    return v;
  }

  string(): string {
    const s = this.s;
    this.i++; // opening quote
    let out = "";
    let start = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail("unclosed string literal");
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(start, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail(`invalid character ${quoteRune(s[this.i] as string)} in string literal`);
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      this.i++;
      if (this.i >= s.length) this.fail("unclosed string literal");
      const e = s[this.i] as string;
      this.i++;
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          break;
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
          let r = this.hex4();
          if (r >= 0xd800 && r <= 0xdbff && s.startsWith("\\u", this.i)) {
            const save = this.i;
            this.i += 2;
            const lo = this.hex4();
            if (lo >= 0xdc00 && lo <= 0xdfff) r = 0x10000 + ((r - 0xd800) << 10) + (lo - 0xdc00);
            else this.i = save;
          }
          out += runeToByteString(r);
          break;
        }
        default:
          this.i--;
          this.fail(`invalid character ${quoteRune(e)} in string escape code`);
      }
      start = this.i;
    }
  }

  hex4(): number {
    const h = this.s.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail("invalid escape");
    this.i += 4;
    return Number.parseInt(h, 16);
  }
}

/** Decodes a JSON byte string into Starlark values. */
export function jsonDecode(s: string): Value {
  const d = new Decoder(s);
  let v: Value;
  try {
    v = d.value();
  } catch (e) {
    // Absurd nesting exhausts the JS stack; report it as a decoding error.
    if (e instanceof RangeError) throw new JsonSyntaxError("nesting too deep");
    throw e;
  }
  d.skipSpace();
  if (d.i < s.length) d.fail(`unexpected character ${quoteRune(s[d.i] as string)} after value`);
  return v;
}
