import { codePointBytes, utf8ByteString } from "./bytestring.js";
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

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= "0" && c <= "9") || (c > "\x7f" && /[\p{L}\p{N}\p{Mn}\p{Mc}]/u.test(c));
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
      // String prefixes: r, b, rb, br (any case for r).
      const c1 = this.peek(1);
      const c2 = this.peek(2);
      const q1 = c1 === '"' || c1 === "'";
      if ((c === "r" || c === "R") && q1) {
        this.advance();
        return this.scanString(pos, true, false, begin);
      }
      if (c === "b" && q1) {
        this.advance();
        return this.scanString(pos, false, true, begin);
      }
      if (
        ((c === "r" || c === "R") && c1 === "b") ||
        (c === "b" && (c1 === "r" || c1 === "R") && (c2 === '"' || c2 === "'"))
      ) {
        if (c2 === '"' || c2 === "'") {
          this.advance();
          this.advance();
          return this.scanString(pos, true, true, begin);
        }
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
    this.fail(pos, `unexpected input character ${JSON.stringify(String.fromCodePoint(cp))}`);
  }

  private scanNumber(pos: Position): Token {
    const start = this.i;
    const c = this.peek();
    if (c === "0" && /[xXoObB]/.test(this.peek(1))) {
      const kind = this.peek(1).toLowerCase();
      this.advance();
      this.advance();
      const digitsStart = this.i;
      while (/[0-9a-zA-Z_]/.test(this.peek())) this.advance();
      const digits = this.src.slice(digitsStart, this.i);
      const valid = kind === "x" ? /^[0-9a-fA-F]+$/ : kind === "o" ? /^[0-7]+$/ : /^[01]+$/;
      if (!valid.test(digits)) {
        const name = kind === "x" ? "hex" : kind === "o" ? "octal" : "binary";
        this.fail(kind === "x" ? pos : this.pos(), `invalid ${name} literal`);
      }
      const raw = this.src.slice(start, this.i);
      return this.token("INT", pos, raw, normalizeInt(BigInt(`0${kind}${digits}`)));
    }
    let isFloat = false;
    while (isDigit(this.peek())) this.advance();
    if (this.peek() === ".") {
      isFloat = true;
      this.advance();
      while (isDigit(this.peek())) this.advance();
    }
    if (this.peek() === "e" || this.peek() === "E") {
      isFloat = true;
      this.advance();
      if (this.peek() === "+" || this.peek() === "-") this.advance();
      if (!isDigit(this.peek())) this.fail(this.pos(), "invalid float literal");
      while (isDigit(this.peek())) this.advance();
    }
    const raw = this.src.slice(start, this.i);
    if (isFloat) return this.token("FLOAT", pos, raw, Number(raw));
    if (raw.length > 1 && raw[0] === "0" && !/^0+$/.test(raw)) {
      this.fail(this.pos(), `obsolete form of octal literal; use 0o${raw.slice(1)}`);
    }
    return this.token("INT", pos, raw, normalizeInt(BigInt(raw)));
  }

  private scanString(pos: Position, raw: boolean, bytes: boolean, start: number): Token {
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
    const value = raw ? utf8ByteString(body) : this.unescape(body, pos, bytes);
    return this.token(bytes ? "BYTES" : "STRING", pos, this.src.slice(start, this.i), value);
  }

  /** Decodes escape sequences; literal text becomes UTF-8 bytes, escapes yield raw bytes. */
  private unescape(body: string, pos: Position, bytes: boolean): string {
    if (!body.includes("\\")) return utf8ByteString(body);
    let out = "";
    let i = 0;
    while (i < body.length) {
      const j = body.indexOf("\\", i);
      if (j < 0) {
        out += utf8ByteString(body.slice(i));
        break;
      }
      out += utf8ByteString(body.slice(i, j));
      const e = body[j + 1] ?? "";
      i = j + 2;
      if (e === "\n") continue;
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        out += String.fromCharCode(simple);
        continue;
      }
      if (e >= "0" && e <= "7") {
        let n = e.charCodeAt(0) - 48;
        for (let k = 0; k < 2 && (body[i] ?? "") >= "0" && (body[i] ?? "") <= "7"; k++) {
          n = n * 8 + (body.charCodeAt(i) - 48);
          i++;
        }
        if (n >= 256) this.fail(pos, `invalid escape sequence \\${n.toString(8).padStart(3, "0")}`);
        out += String.fromCharCode(n);
        continue;
      }
      if (e === "x") {
        const hex = body.slice(i, i + 2);
        if (hex.length < 2) this.fail(pos, `truncated escape sequence \\x${hex}`);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail(pos, `invalid escape sequence \\x${hex}`);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 2;
        continue;
      }
      if ((e === "u" || e === "U") && !bytes) {
        const n = e === "u" ? 4 : 8;
        const hex = body.slice(i, i + n);
        if (hex.length < n) this.fail(pos, `truncated escape sequence \\${e}${hex}`);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex))
          this.fail(pos, `invalid escape sequence \\${e}${hex}`);
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff) this.fail(pos, `code point out of range: \\${e}${hex} (max \\U00010ffff)`);
        if (cp >= 0xd800 && cp < 0xe000) this.fail(pos, `invalid Unicode code point U+${hex.toUpperCase()}`);
        out += codePointBytes(cp);
        i += n;
        continue;
      }
      if (e === "") this.fail(pos, "truncated escape sequence \\");
      this.fail(pos, `invalid escape sequence \\${e}`);
    }
    return out;
  }
}

/** Ints are JS numbers when safe, bigints otherwise (the package's int representation). */
export function normalizeInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}
