import { describe, expect, it } from "vitest";
import { ParseAbort } from "./position.js";
import { Scanner } from "./scanner.js";

function tokens(src: string): string[] {
  const sc = new Scanner(src);
  const out: string[] = [];
  for (;;) {
    const t = sc.next();
    out.push(t.value === undefined ? t.kind : `${t.kind}(${String(t.value)})`);
    if (t.kind === "EOF") return out;
  }
}

function scanError(src: string): string {
  try {
    tokens(src);
  } catch (e) {
    if (e instanceof ParseAbort) return `${e.pos.line}:${e.pos.col}: ${e.msg}`;
    throw e;
  }
  throw new Error("no error");
}

describe("scanner", () => {
  it("synthesizes NEWLINE, INDENT and OUTDENT, ignoring blank and comment lines", () => {
    expect(tokens("if x:\n  y\n\n  # c\n  z\nw\n")).toEqual([
      "if",
      "IDENT(x)",
      ":",
      "NEWLINE",
      "INDENT",
      "IDENT(y)",
      "NEWLINE",
      "IDENT(z)",
      "NEWLINE",
      "OUTDENT",
      "IDENT(w)",
      "NEWLINE",
      "EOF",
    ]);
  });

  it("treats end of file as a newline and closes open blocks", () => {
    expect(tokens("def f():\n\tpass")).toEqual([
      "def",
      "IDENT(f)",
      "(",
      ")",
      ":",
      "NEWLINE",
      "INDENT",
      "pass",
      "NEWLINE",
      "OUTDENT",
      "EOF",
    ]);
  });

  it("ignores newlines inside brackets and after a backslash", () => {
    expect(tokens("f(1,\n  2) + \\\n 3")).toEqual([
      "IDENT(f)",
      "(",
      "INT(1)",
      ",",
      "INT(2)",
      ")",
      "+",
      "INT(3)",
      "NEWLINE",
      "EOF",
    ]);
  });

  it("scans every numeric literal form", () => {
    expect(tokens("0 123 0x1F 0o17 0b101 1.5 .5 1e3 2.5E-1 1.")).toEqual([
      "INT(0)",
      "INT(123)",
      "INT(31)",
      "INT(15)",
      "INT(5)",
      "FLOAT(1.5)",
      "FLOAT(0.5)",
      "FLOAT(1000)",
      "FLOAT(0.25)",
      "FLOAT(1)",
      "NEWLINE",
      "EOF",
    ]);
    expect(tokens("123456789012345678901234567890")[0]).toBe("INT(123456789012345678901234567890)");
  });

  it("decodes string escapes into UTF-8 byte strings", () => {
    const value = (src: string) => new Scanner(src).next().value;
    expect(value(String.raw`"a\tb\n\\\"\x41\101"`)).toBe('a\tb\n\\"AA');
    expect(value(`"Ω"`)).toBe("\xce\xa9");
    expect(value(String.raw`"\u03a9"`)).toBe("\xce\xa9");
    expect(value(String.raw`r"a\nb"`)).toBe("a\\nb");
    expect(value(`'''a\n"b"'''`)).toBe('a\n"b"');
    expect(value(String.raw`b"\xff"`)).toBe("\xff");
  });

  it("reports go.starlark.net's scan errors", () => {
    expect(scanError(String.raw`s = "\x-0"`)).toBe("1:5: invalid escape sequence \\x-0");
    expect(scanError("raw = r'a\nb'")).toBe("1:7: unexpected newline in string");
    expect(scanError('x = "abc')).toBe("1:5: unexpected EOF in string");
    expect(scanError("a = 1)")).toBe("1:6: unexpected ')'");
    expect(scanError("x = 0755")).toMatch(/obsolete form of octal literal; use 0o755/);
    expect(scanError("if x:\n    a\n  b")).toMatch(/unindent does not match any outer indentation level/);
    expect(scanError("x = 1 ! 2")).toMatch(/unexpected input character '!'/);
    expect(scanError("x = 1e")).toMatch(/invalid float literal/);
  });
});
