import { codePointBytes, quoteRune, utf8ByteString } from "./bytestring.js";
import { ParseAbort, type Position } from "./position.js";
import { KEYWORDS, PUNCTUATION, type Token, type TokenKind } from "./tokens.js";

const TAB_WIDTH = 8;
const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
  "'": 39,
  '"': 34,
};

function isIdentStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || (c > "\x7f" && /\p{L}/u.test(c));
}

/** go.starlark.net's isIdent: an identifier start (a letter or `_`) or an ASCII digit. */
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= "0" && c <= "9");
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

/**
 * The Starlark scanner: turns source text into tokens on demand, synthesizing NEWLINE,
 * INDENT and OUTDENT tokens the way go.starlark.net does (newlines inside brackets are
 * ignored; blank and comment-only lines do not affect indentation; EOF acts as a newline).
 * The first error aborts scanning with a ParseAbort.
 */
export class Scanner {
  private readonly src: string;
  private i = 0;
  private line = 1;
  private col = 1;
  private depth = 0;
  private readonly indents: number[] = [0];
  private pendingOutdents = 0;
  private lineStart = true;
  private lastKind: TokenKind | undefined;

  constructor(source: string) {
    this.src = source.includes("\r") ? source.replace(/\r\n?/g, "\n") : source;
  }

  private pos(): Position {
    return { line: this.line, col: this.col };
  }

  private fail(pos: Position, msg: string): never {
    throw new ParseAbort(pos, msg);
  }

  private peek(offset = 0): string {
    return this.src[this.i + offset] ?? "";
  }

  private advance(): string {
    const c = this.src[this.i++] ?? "";
    if (c === "\n") {
      this.line++;
      this.col = 1;
    } else {
      this.col++;
    }
    return c;
  }

  private token(kind: TokenKind, pos: Position, raw = "", value?: string | number | bigint): Token {
    this.lastKind = kind;
    return { kind, pos, end: this.pos(), raw, value };
  }

  next(): Token {
    if (this.pendingOutdents > 0) {
      this.pendingOutdents--;
      return this.token("OUTDENT", this.pos());
    }
    for (;;) {
      if (this.lineStart && this.depth === 0) {
        const indentToken = this.scanIndentation();
        if (indentToken !== undefined) return indentToken;
      }
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\f") {
        this.advance();
        continue;
      }
      if (c === "\\") {
        if (this.peek(1) === "\n") {
          this.advance();
          this.advance();
          continue;
        }
        this.fail(this.pos(), "stray backslash in program");
      }
      if (c === "#") {
        while (this.i < this.src.length && this.peek() !== "\n") this.advance();
        continue;
      }
      if (c === "\n") {
        const pos = this.pos();
        const blank = this.lineStart;
        this.advance();
        this.lineStart = true;
        if (this.depth > 0 || blank) continue;
        return this.token("NEWLINE", pos);
      }
      if (c === "") return this.endOfFile();
      this.lineStart = false;
      return this.scanToken();
    }
  }

  /** At the start of a logical line: measure indentation, skip blank lines, emit INDENT/OUTDENT. */
  private scanIndentation(): Token | undefined {
    let col = 0;
    for (;;) {
      const c = this.peek();
      if (c === " ") col++;
      else if (c === "\t") col += TAB_WIDTH - (col % TAB_WIDTH);
      else if (c === "\f") col = 0;
      else break;
      this.advance();
    }
    const c = this.peek();
    if (c === "#" || c === "\n" || c === "" || (c === "\\" && this.peek(1) === "\n")) {
      // Blank or comment-only line: indentation is irrelevant.
      return undefined;
    }
    this.lineStart = false;
    const top = this.indents[this.indents.length - 1] ?? 0;
    if (col > top) {
      this.indents.push(col);
      return this.token("INDENT", this.pos());
    }
    if (col < top) {
      let n = 0;
      while (this.indents.length > 1 && (this.indents[this.indents.length - 1] ?? 0) > col) {
        this.indents.pop();
        n++;
      }
      if ((this.indents[this.indents.length - 1] ?? 0) !== col) {
        this.fail(this.pos(), "unindent does not match any outer indentation level");
      }
      this.pendingOutdents = n - 1;
      return this.token("OUTDENT", this.pos());
    }
    return undefined;
  }

  private endOfFile(): Token {
    const pos = this.pos();
    if (this.depth === 0) {
      if (this.lastKind !== undefined && this.lastKind !== "NEWLINE" && this.lastKind !== "OUTDENT") {
        return this.token("NEWLINE", pos);
      }
      if (this.indents.length > 1) {
        this.indents.pop();
        return this.token("OUTDENT", pos);
      }
    }
    return this.token("EOF", pos);
  }

  private scanToken(): Token {
    const pos = this.pos();
    const begin = this.i;
    const c = this.peek();
    if (isDigit(c) || (c === "." && isDigit(this.peek(1)))) return this.scanNumber(pos);
    if (c === '"' || c === "'") return this.scanString(pos, false, false, begin);
    if (isIdentStart(c)) {
      // String prefixes, as upstream: r"...", b"..." and rb"..." (lower case only).
      const c1 = this.peek(1);
      const c2 = this.peek(2);
      const q1 = c1 === '"' || c1 === "'";
      if (c === "r" && q1) {
        this.advance();
        return this.scanString(pos, true, false, begin);
      }
      if (c === "b" && q1) {
        this.advance();
        return this.scanString(pos, false, true, begin);
      }
      if (c === "r" && c1 === "b" && (c2 === '"' || c2 === "'")) {
        this.advance();
        this.advance();
        return this.scanString(pos, true, true, begin);
      }
      const start = this.i;
      while (this.i < this.src.length && isIdentPart(this.peek())) this.advance();
      const name = this.src.slice(start, this.i);
      if (KEYWORDS.has(name)) return this.token(name, pos, name);
      return this.token("IDENT", pos, name, utf8ByteString(name));
    }
    for (const p of PUNCTUATION) {
      if (this.src.startsWith(p, this.i)) {
        for (let k = 0; k < p.length; k++) this.advance();
        if (p === "(" || p === "[" || p === "{") this.depth++;
        else if (p === ")" || p === "]" || p === "}") {
          if (this.depth === 0) this.fail(pos, `unexpected '${p}'`);
          this.depth--;
        }
        return this.token(p, pos, p);
      }
    }
    if (c === "!") this.fail(pos, "unexpected input character '!'");
    const cp = this.src.codePointAt(this.i) ?? 0;
    this.fail(pos, `unexpected input character ${quoteRune(cp)}`);
  }

  /** go.starlark.net's scanNumber: its accepted forms, error texts and error positions. */
  private scanNumber(pos: Position): Token {
    const start = this.i;
    let fraction = false;
    let exponent = false;
    const isHex = (c: string) => /^[0-9a-fA-F]$/.test(c);
    const run = (ok: (c: string) => boolean) => {
      while (ok(this.peek())) this.advance();
    };
    let c = this.peek();
    if (c === ".") {
      this.advance();
      fraction = true;
    } else if (c === "0") {
      this.advance();
      c = this.peek();
      if (c === ".") {
        fraction = true;
      } else if (c === "x" || c === "X") {
        this.advance();
        if (!isHex(this.peek())) this.fail(pos, "invalid hex literal");
        run(isHex);
      } else if (c === "o" || c === "O") {
        this.advance();
        if (!/^[0-7]$/.test(this.peek())) this.fail(this.pos(), "invalid octal literal");
        run((d) => /^[0-7]$/.test(d));
      } else if (c === "b" || c === "B") {
        this.advance();
        if (this.peek() !== "0" && this.peek() !== "1") this.fail(this.pos(), "invalid binary literal");
        run((d) => d === "0" || d === "1");
      } else {
        // A float, or the obsolete octal form 0755.
        let allZeros = true;
        let octal = true;
        while (isDigit(this.peek())) {
          const d = this.advance();
          if (d !== "0") allZeros = false;
          if (d > "7") octal = false;
        }
        c = this.peek();
        if (c === ".") fraction = true;
        else if (c === "e" || c === "E") exponent = true;
        else if (octal && !allZeros) {
          this.fail(this.pos(), `obsolete form of octal literal; use 0o${this.src.slice(start + 1, this.i)}`);
        }
      }
    } else {
      run(isDigit);
      c = this.peek();
      if (c === ".") fraction = true;
      else if (c === "e" || c === "E") exponent = true;
    }
    if (fraction) {
      if (this.peek() === ".") this.advance();
      run(isDigit);
      c = this.peek();
      if (c === "e" || c === "E") exponent = true;
    }
    if (exponent) {
      this.advance();
      c = this.peek();
      if (c === "+" || c === "-") {
        this.advance();
        if (!isDigit(this.peek())) this.fail(this.pos(), "invalid float literal");
      }
      run(isDigit);
    }
    const raw = this.src.slice(start, this.i);
    if (fraction || exponent) {
      // strconv.ParseFloat: out-of-range values (1e400) are an error, as is a bare "1e".
      const value = Number(raw);
      if (!Number.isFinite(value) || Number.isNaN(value)) this.fail(this.pos(), "invalid float literal");
      return this.token("FLOAT", pos, raw, value);
    }
    let value: bigint;
    if (/^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$|^[1-9][0-9]*$|^0+$/.test(raw)) value = BigInt(raw);
    else this.fail(pos, "invalid int literal");
    return this.token("INT", pos, raw, normalizeInt(value));
  }

  private scanString(pos: Position, raw: boolean, bytes: boolean, start: number): Token {
    const quotePos = this.pos(); // escape errors point here, after any r/b prefix (as upstream)
    const quote = this.advance();
    let triple = false;
    if (this.peek() === quote && this.peek(1) === quote) {
      this.advance();
      this.advance();
      triple = true;
    }
    const bodyStart = this.i;
    let bodyEnd: number;
    for (;;) {
      const c = this.peek();
      if (c === "") this.fail(pos, "unexpected EOF in string");
      if (c === "\n" && !triple) this.fail(pos, "unexpected newline in string");
      if (c === "\\") {
        this.advance();
        if (this.peek() === "") this.fail(pos, "unexpected EOF in string");
        this.advance();
        continue;
      }
      if (c === quote) {
        if (!triple) {
          bodyEnd = this.i;
          this.advance();
          break;
        }
        if (this.peek(1) === quote && this.peek(2) === quote) {
          bodyEnd = this.i;
          this.advance();
          this.advance();
          this.advance();
          break;
        }
      }
      this.advance();
    }
    const body = this.src.slice(bodyStart, bodyEnd);
    const value = raw ? utf8ByteString(body) : this.unescape(body, quotePos, bytes);
    return this.token(bytes ? "BYTES" : "STRING", pos, this.src.slice(start, this.i), value);
  }

  /**
   * go.starlark.net's unquote for the body of a non-raw literal: its escapes (\u and \U in bytes
   * too; \x and octal escapes above 127 only in bytes) and its error texts.
   */
  private unescape(body: string, pos: Position, bytes: boolean): string {
    if (!body.includes("\\")) return utf8ByteString(body);
    let out = "";
    let rest = body;
    for (;;) {
      const j = rest.indexOf("\\");
      if (j < 0) {
        out += utf8ByteString(rest);
        break;
      }
      out += utf8ByteString(rest.slice(0, j));
      rest = rest.slice(j);
      if (rest.length === 1) this.fail(pos, "truncated escape sequence \\");
      const e = rest[1] as string;
      if (e === "\n") {
        rest = rest.slice(2);
        continue;
      }
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += String.fromCharCode(simple);
        rest = rest.slice(2);
        continue;
      }
      if (e >= "0" && e <= "7") {
        let n = e.charCodeAt(0) - 48;
        let k = 2;
        for (; k < 4 && (rest[k] ?? "") >= "0" && (rest[k] ?? "") <= "7"; k++)
          n = n * 8 + (rest.charCodeAt(k) - 48);
        rest = rest.slice(k);
        if (!bytes && n > 127) {
          const u = hex4(n);
          this.fail(
            pos,
            `non-ASCII octal escape \\${n.toString(8)} (use \\u${u} for the UTF-8 encoding of U+${u})`,
          );
        }
        if (n >= 256) this.fail(pos, `invalid escape sequence \\${n.toString(8).padStart(3, "0")}`);
        out += String.fromCharCode(n);
        continue;
      }
      if (e === "x") {
        if (rest.length < 4) this.fail(pos, `truncated escape sequence ${rest}`);
        const hex = rest.slice(2, 4);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail(pos, `invalid escape sequence ${rest.slice(0, 4)}`);
        const n = Number.parseInt(hex, 16);
        if (!bytes && n > 127) {
          const u = hex4(n);
          this.fail(
            pos,
            `non-ASCII hex escape ${rest.slice(0, 4)} (use \\u${u} for the UTF-8 encoding of U+${u})`,
          );
        }
        out += String.fromCharCode(n);
        rest = rest.slice(4);
        continue;
      }
      if (e === "u" || e === "U") {
        const size = e === "u" ? 6 : 10;
        if (rest.length < size) this.fail(pos, `truncated escape sequence ${rest}`);
        const hex = rest.slice(2, size);
        if (!/^[0-9a-fA-F]+$/.test(hex)) this.fail(pos, `invalid escape sequence ${rest.slice(0, size)}`);
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff)
          this.fail(pos, `code point out of range: ${rest.slice(0, size)} (max \\U0010ffff)`);
        if (cp >= 0xd800 && cp < 0xe000) this.fail(pos, `invalid Unicode code point U+${hex4(cp)}`);
        out += codePointBytes(cp);
        rest = rest.slice(size);
        continue;
      }
      this.fail(pos, `invalid escape sequence \\${e}`);
    }
    return out;
  }
}

/** Go's %04X. */
function hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, "0");
}

/** Ints are JS numbers when safe, bigints otherwise (the package's int representation). */
export function normalizeInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}
