import { describe, expect, it } from "vitest";
import { goParseInt, goParseUint, goQuote } from "./go-text.js";

describe("goQuote (Go's %q)", () => {
  it.each([
    ["abc", '"abc"'],
    ["", '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ["back\\slash", '"back\\\\slash"'],
    ["\u0007\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'],
    ["\u0000\u001b\u007f", '"\\x00\\x1b\\x7f"'],
    ["naïve", '"naïve"'],
  ])("%j -> %s", (text, quoted) => {
    expect(goQuote(text)).toBe(quoted);
  });
});

describe("goParseInt / goParseUint (strconv, base 10, 64 bits)", () => {
  it("accept what Go accepts", () => {
    expect(goParseInt("-9223372036854775808")).toEqual({ ok: true, value: -(2n ** 63n) });
    expect(goParseInt("+7")).toEqual({ ok: true, value: 7n });
    expect(goParseUint("18446744073709551615")).toEqual({ ok: true, value: 2n ** 64n - 1n });
  });

  it("refuse with Go's texts", () => {
    expect(goParseInt("9223372036854775808")).toEqual({
      ok: false,
      message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    });
    expect(goParseInt("1_000")).toEqual({
      ok: false,
      message: 'strconv.ParseInt: parsing "1_000": invalid syntax',
    });
    expect(goParseUint("+7")).toEqual({
      ok: false,
      message: 'strconv.ParseUint: parsing "+7": invalid syntax',
    });
    expect(goParseUint("18446744073709551616")).toEqual({
      ok: false,
      message: 'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    });
  });
});
