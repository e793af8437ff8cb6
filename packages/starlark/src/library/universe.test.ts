import { describe, expect, it } from "vitest";
import {
  Builtin,
  callValue,
  LimitError,
  None,
  repr,
  StarBytes,
  StarDict,
  StarEvalError,
  StarFloat,
  StarList,
  StarTuple,
  Thread,
  type Value,
} from "../values/index.js";
import { universe } from "./universe.js";
import { unpackArgs } from "./unpack.js";

const printed: string[] = [];
const t = new Thread({ print: (_t, m) => printed.push(m) });
const u = universe({ set: true });
const call = (name: string, args: Value[] = [], kwargs: [string, Value][] = []) =>
  callValue(t, u.get(name) as Value, args, kwargs);
const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StarEvalError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
};
const f = (x: number) => new StarFloat(x);
const list = (...xs: Value[]) => new StarList(xs);

describe("universe", () => {
  it("offers set only when the dialect allows it", () => {
    expect(universe().has("set")).toBe(false);
    expect(u.has("set")).toBe(true);
    expect([...universe().keys()]).toContain("None");
  });

  it("int() parses like go.starlark.net", () => {
    expect(call("int", ["0x12", 0])).toBe(18);
    expect(call("int", ["-0o123", 8])).toBe(-83);
    expect(call("int", ["0b0101", 0])).toBe(5);
    expect(call("int", ["100000000000000000000"])).toBe(10n ** 20n);
    expect(call("int", [f(-99.9)])).toBe(-99);
    expect(call("int", [f(1e100)])).toBe(BigInt(1e100));
    expect(err(() => call("int", ["0123", 0]))).toBe("int: invalid literal with base 0: 0123");
    expect(err(() => call("int", ["0x-4", 16]))).toBe("int: invalid literal with base 16: 0x-4");
    expect(err(() => call("int", [3], [["base", 10]]))).toBe(
      "int: can't convert non-string with explicit base",
    );
    expect(err(() => call("int", []))).toBe("int: missing argument for x");
    expect(err(() => call("int", [f(Number.NaN)]))).toBe("int: cannot convert float NaN to integer");
    expect(err(() => call("int", [None]))).toBe("int: cannot convert NoneType to int");
  });

  it("float() parses like go.starlark.net", () => {
    expect(call("float", ["+InFiniTy"])).toEqual(f(Number.POSITIVE_INFINITY));
    expect(call("float", ["-1.1"])).toEqual(f(-1.1));
    expect(err(() => call("float", ["1e1000"]))).toBe("floating-point number too large");
    expect(err(() => call("float", ["1.2.3"]))).toBe("invalid float literal: 1.2.3");
    expect(err(() => call("float", [None]))).toBe("float got NoneType, want number or string");
    expect(err(() => call("float", [1n << 1100n]))).toBe("int too large to convert to float");
  });

  it("sorted is stable and reports go's last comparison error", () => {
    const pairs = list(
      ...[
        [4, 0],
        [3, 1],
        [4, 2],
        [2, 3],
      ].map((p) => new StarTuple(p)),
    );
    const first = new Builtin("first", (_t, args) => (args[0] as StarTuple).elems[0] as Value);
    expect(repr(call("sorted", [pairs], [["key", first]]))).toBe("[(2, 3), (3, 1), (4, 0), (4, 2)]");
    expect(repr(call("sorted", [list(7, 3, f(Number.NaN), 1, 9)], [["reverse", true]]))).toBe(
      "[nan, 9, 7, 3, 1]",
    );
    expect(err(() => call("sorted", [list(1, 2, None, 3)]))).toBe("int < NoneType not implemented");
    expect(err(() => call("sorted", [list(1, "one")]))).toBe("string < int not implemented");
    expect(err(() => call("sorted", [1]))).toBe("sorted: for parameter iterable: got int, want iterable");
    expect(err(() => call("sorted", [list()], [["key", None]]))).toBe(
      'sorted: for parameter "key": got NoneType, want callable',
    );
    expect(err(() => call("sorted", [list(), None]))).toBe(
      "sorted: for parameter key: got NoneType, want callable",
    );
    expect(err(() => call("sorted", [list()], [["keg", None]]))).toBe(
      'sorted: unexpected keyword argument "keg" (did you mean key?)',
    );
  });

  it("min/max/enumerate/zip/reversed/range", () => {
    expect(call("max", [list(1, f(Number.NaN), 3)])).toEqual(f(Number.NaN));
    expect(call("min", [5, -2, 1])).toBe(-2);
    expect(err(() => call("min", []))).toBe("min requires at least one positional argument");
    expect(err(() => call("min", [list()]))).toBe("min: argument is an empty sequence");
    expect(repr(call("enumerate", [list(false, None), 42]))).toBe("[(42, False), (43, None)]");
    expect(err(() => call("zip", [list(1), 1]))).toBe("zip: argument #2 is not iterable: int");
    expect(repr(call("reversed", [list(1, 2)]))).toBe("[2, 1]");
    expect(repr(call("range", [0, 10, -1]))).toBe("range(0, 10, -1)");
    expect(err(() => call("range", [1n << 64n]))).toBe(
      "range: for parameter 1: 18446744073709551616 out of range (want value in signed 64-bit range)",
    );
    expect(call("len", [call("range", [0x7fffffff])])).toBe(0x7fffffff);
  });

  it("chr/ord/hash/dir/type/len", () => {
    expect(call("chr", [0x1f63f])).toBe("\xf0\x9f\x98\xbf");
    expect(err(() => call("chr", [0x110000]))).toBe(
      "chr: Unicode code point U+110000 out of range (>0x10FFFF)",
    );
    expect(err(() => call("ord", ["abc"]))).toBe("ord: string encodes 3 Unicode code points, want 1");
    expect(call("hash", ["hello"])).toBe(99162322);
    expect(call("hash", ["Hello, \xe4\xb8\x96\xe7\x95\x8c!"])).toBe(417292677);
    expect(repr(call("dir", [new StarDict()]))).toBe(
      '["clear", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"]',
    );
    expect(err(() => call("len", [1]))).toBe("len: value of type int has no len");
  });

  it("dict() and fail() and print()", () => {
    expect(err(() => call("dict", [list("ab")]))).toBe(
      "dict: dictionary update sequence element #0 is not iterable (string)",
    );
    expect(
      err(() =>
        call(
          "dict",
          [new StarDict()],
          [
            ["a", 1],
            ["a", 2],
          ],
        ),
      ),
    ).toBe('dict: duplicate keyword arg: "a"');
    expect(err(() => call("fail", [1, 2, 3], [["sep", "/"]]))).toBe("fail: 1/2/3");
    call("print", ["h\xc3\xa9", 1]);
    expect(printed.at(-1)).toBe("hé 1");
  });

  it("respects size limits", () => {
    const small = new Thread({ limits: { maxCollectionSize: 5 } });
    expect(() =>
      callValue(small, u.get("list") as Value, [callValue(small, u.get("range") as Value, [10])]),
    ).toThrow(LimitError);
  });
});

describe("unpackArgs", () => {
  it("binds and reports go's texts", () => {
    expect(unpackArgs("f", [1], [["y", 2]], ["x", "y?"])).toEqual([1, 2]);
    expect(err(() => unpackArgs("f", [], [], ["x"]))).toBe("f: missing argument for x");
    expect(err(() => unpackArgs("f", [1, 2, 3], [], ["x", "y?"]))).toBe("f: got 3 arguments, want at most 2");
    expect(err(() => unpackArgs("f", [], [["z", 1]], ["x?"]))).toBe('f: unexpected keyword argument "z"');
    expect(err(() => unpackArgs("f", [1], [["x", 1]], ["x"]))).toBe(
      'f: got multiple values for keyword argument "x"',
    );
  });
});

describe("bytes (current go.starlark.net)", () => {
  it("builds bytes from strings and ints, prints and decodes them", async () => {
    const { iterableToArray, callMethod, str: strOf } = await import("../values/index.js");
    // Invalid UTF-8 in the string becomes U+FFFD, as upstream's bytes(string) transcodes.
    const b = call("bytes", ["h\xc3\xa9\xff"]);
    expect(repr(b)).toBe('b"h\xc3\xa9\xef\xbf\xbd"');
    expect(call("str", [new StarBytes("h\xff")])).toBe("h\xef\xbf\xbd");
    expect(strOf(b)).toBe(repr(b)); // %s, print's non-strings and format() write bytes as their repr
    expect(repr(call("bytes", [list(104, 105)]))).toBe('b"hi"');
    expect(err(() => call("bytes", [list(256)]))).toBe(
      "bytes: at index 0, 256 out of range (want value in unsigned 8-bit range)",
    );
    expect(iterableToArray(callMethod(t, b, "elems", [], []) as Value)).toEqual([
      104, 0xc3, 0xa9, 0xef, 0xbf, 0xbd,
    ]);
    expect(call("len", [b])).toBe(6);
  });
});

describe("abs", () => {
  it("handles ints, big ints and floats", () => {
    expect(call("abs", [-3])).toBe(3);
    expect(call("abs", [-(1n << 80n)])).toBe(1n << 80n);
    expect(repr(call("abs", [f(-0)]))).toBe("0.0");
    expect(err(() => call("abs", ["x"]))).toBe("got string, want int or float");
  });
});
