import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeByteStringToUtf8,
  encodeUtf8ToByteString,
  equals,
  None,
  repr,
  StarDict,
  StarEvalError,
  StarFloat,
  StarList,
  type Value,
} from "../values/index.js";
import { jsonDecode, jsonEncode, jsonIndent } from "./index.js";

const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StarEvalError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("json.encode", () => {
  it("encodes compactly with sorted keys", () => {
    const d = new StarDict();
    d.setKey("y", "two");
    d.setKey("x", 1);
    expect(jsonEncode(d)).toBe('{"x":1,"y":"two"}');
    expect(jsonEncode(new StarFloat(12.345e67))).toBe("1.2345e+68");
    expect(jsonEncode(3539537889086624823140625n)).toBe("3539537889086624823140625");
    expect(jsonEncode("\x80")).toBe('"\\ufffd"');
    expect(jsonEncode(new StarList([None, true]))).toBe("[null,true]");
  });
  it("reports nested failures with their path", () => {
    const inner = new StarDict();
    inner.setKey("x", new StarFloat(Number.NaN));
    expect(err(() => jsonEncode(new StarList([1, inner])))).toBe(
      'at list index 1: in dict key "x": cannot encode non-finite float nan',
    );
    const bad = new StarDict();
    bad.setKey(1, 2);
    expect(err(() => jsonEncode(bad))).toBe("dict has int key, want string");
  });
});

describe("json.decode", () => {
  it("decodes values", () => {
    expect(jsonDecode("-123")).toBe(-123);
    expect(jsonDecode("3539537889086624823140625")).toBe(3539537889086624823140625n);
    expect(jsonDecode("0e+1")).toEqual(new StarFloat(0));
    expect(repr(jsonDecode('{"one": 1, "two": [2, "x"]}'))).toBe('{"one": 1, "two": [2, "x"]}');
    expect(jsonDecode('"\\ud83d\\ude39"')).toBe(encodeUtf8ToByteString("😹"));
  });
  it.each([
    ["truefalse", "at offset 4, unexpected character 'f' after value"],
    ['"abc', "unclosed string literal"],
    ['"ab\\gc"', "invalid character 'g' in string escape code"],
    ["'abc'", "unexpected character '\\''"],
    ["-abc", "invalid number: -"],
    ["0123", "invalid number: 0123"],
    ["0x123", "unexpected character 'x' after value"],
    ["[1, 2, ]", "unexpected character ']'"],
    ["[1, 2}", "got '}', want ',' or ']'"],
    ['{"one" 1', "after object key, got '1', want ':'"],
    ['{"one": 1 "two": 2', "in object, got '\"', want ',' or '}'"],
    ['{"one": 1, }', "unexpected character '}'"],
    ["[1, 2, ", "unexpected end of file"],
  ])("%s fails", (src, want) => {
    expect(err(() => jsonDecode(src))).toContain(want);
  });
  it("round-trips strings and numbers (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
        (x) => {
          const v: Value =
            typeof x === "string"
              ? encodeUtf8ToByteString(x)
              : Number.isInteger(x) && typeof x === "number" && !Object.is(x, -0) && Number.isSafeInteger(x)
                ? x
                : new StarFloat(x);
          expect(equals(jsonDecode(jsonEncode(v)), v)).toBe(true);
          if (typeof x === "string")
            expect(decodeByteStringToUtf8(jsonDecode(jsonEncode(v)) as string)).toBe(
              x.replace(/[\ud800-\udfff]/g, "\ufffd"),
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("json.indent", () => {
  it("indents like Go's json.Indent", () => {
    expect(jsonIndent('{"x":1,"y":["one","two"],"z":{}}', "", "\t")).toBe(
      '{\n\t"x": 1,\n\t"y": [\n\t\t"one",\n\t\t"two"\n\t],\n\t"z": {}\n}',
    );
    expect(err(() => jsonIndent("!@#", "", "\t"))).toContain("invalid character '!'");
  });
});

describe("deep nesting", () => {
  it("fails cleanly instead of overflowing the stack", () => {
    expect(err(() => jsonDecode("[".repeat(200000)))).toBe("nesting too deep");
    let x: Value = new StarList([]);
    for (let i = 0; i < 200000; i++) x = new StarList([x]);
    expect(err(() => jsonEncode(x))).toBe("nesting too deep");
  });
});
