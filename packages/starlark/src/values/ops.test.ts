import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  augmentedBinary,
  binary,
  compare,
  compareForSort,
  encodeUtf8ToByteString,
  equals,
  getIndex,
  hashValue,
  inOperator,
  iterate,
  LimitError,
  None,
  percentFormat,
  repr,
  StarDict,
  StarEvalError,
  StarFloat,
  StarList,
  StarRange,
  StarSet,
  StarTuple,
  setIndex,
  slice,
  str,
  Thread,
  unary,
  type Value,
} from "./index.js";

const f = (x: number) => new StarFloat(x);
const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StarEvalError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("int arithmetic", () => {
  it("normalizes across the safe-integer boundary", () => {
    const big = binary("+", Number.MAX_SAFE_INTEGER, 1);
    expect(big).toBe(2n ** 53n);
    expect(binary("-", big, 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(binary("*", 0x1000000000000001n, 0x1000000000000001n)).toBe(0x1000000000000002000000000000001n);
  });
  it("floors division and modulo like Python", () => {
    for (const m of [1, 2147483647]) {
      expect(binary("//", -100 * m, 7 * m)).toBe(-15);
      expect(binary("%", 100 * m, -7 * m)).toBe(-5 * m);
      expect(binary("%", -100 * m, 7 * m)).toBe(5 * m);
    }
    expect(Object.is(binary("%", -98, 7), 0)).toBe(true);
    expect(binary("//", -(2n ** 63n), -1)).toBe(2n ** 63n);
  });
  it("reports go.starlark.net's errors", () => {
    expect(err(() => binary("//", 1, 0))).toBe("floored division by zero");
    expect(err(() => binary("%", 1, 0))).toBe("integer modulo by zero");
    expect(err(() => binary("<<", 2, -1))).toMatch(/^negative shift count/);
    expect(err(() => binary("<<", 1, 512))).toMatch(/^shift count too large/);
    expect(err(() => binary("+", "a", 1))).toBe("unknown binary op: string + int");
    expect(err(() => binary("+", new StarDict(), new StarDict()))).toBe("unknown binary op: dict + dict");
    expect(err(() => unary("-", "a"))).toBe("unknown unary op: - string");
  });
  it("bitwise and shifts", () => {
    expect(binary("|", -2147483648, 2147483647)).toBe(-1);
    expect(unary("~", 0)).toBe(-1);
    expect(binary("<<", 1, 100)).toBe(2n ** 100n);
    expect(binary(">>", -5, 100)).toBe(-1);
    expect(binary(">>", -(2n ** 70n), 68)).toBe(-4);
  });
  it("int / int is float", () => {
    expect(binary("/", 5, 4)).toEqual(f(1.25));
    expect(err(() => binary("/", 1, 0))).toBe("floating-point division by zero");
  });
  it("agrees with BigInt arithmetic (property)", () => {
    const int = fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }));
    fc.assert(
      fc.property(int, int, (a, b) => {
        const norm = (v: Value) => (typeof v === "number" ? BigInt(v) : (v as bigint));
        const A = BigInt(a);
        const B = BigInt(b);
        expect(norm(binary("+", normalize(A), normalize(B)))).toBe(A + B);
        expect(norm(binary("*", normalize(A), normalize(B)))).toBe(A * B);
        if (B !== 0n) {
          const q = norm(binary("//", normalize(A), normalize(B)));
          const r = norm(binary("%", normalize(A), normalize(B)));
          expect(q * B + r).toBe(A);
          expect(r === 0n || r < 0n === B < 0n).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

function normalize(b: bigint): number | bigint {
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
}

describe("float arithmetic", () => {
  it("mixes ints and floats", () => {
    expect(binary("+", 1, f(1.2e3))).toEqual(f(1201));
    expect(binary("%", f(-100), f(7))).toEqual(f(5));
    expect(str(binary("//", 1, f(Number.NEGATIVE_INFINITY)))).toBe("-0.0");
    expect(err(() => binary("/", f(1), 0))).toBe("floating-point division by zero");
    expect(err(() => binary("//", f(1), 0))).toBe("floored division by zero");
    expect(err(() => binary("%", 1, f(0)))).toBe("floating-point modulo by zero");
    expect(err(() => binary("+", 1n << 1100n, f(0)))).toBe("int too large to convert to float");
  });
  it("compares exactly and orders NaN last", () => {
    expect(compare("!=", f(1.23e45), 1229999999999999973814869011019624571608236031n)).toBe(true);
    expect(compare("==", f(1.23e45), 1229999999999999973814869011019624571608236032n)).toBe(true);
    expect(compare("==", f(Number.NaN), f(Number.NaN))).toBe(true);
    expect(compare("<", f(Number.POSITIVE_INFINITY), f(Number.NaN))).toBe(true);
    expect(compare("<", -2, f(-2 + 1e-15))).toBe(true);
  });
});

describe("comparison", () => {
  it("mixed types are unequal, unordered", () => {
    expect(equals(1, "1")).toBe(false);
    expect(equals(true, 1)).toBe(false);
    expect(err(() => compare("<", None, None))).toBe("NoneType < NoneType not implemented");
    expect(err(() => compare("<", 0, new StarList()))).toBe("int < list not implemented");
    expect(err(() => compare("<", new StarRange(0, 0, 1), new StarRange(0, 0, 1)))).toBe(
      "range < range not implemented",
    );
  });
  it("compares sequences lexicographically", () => {
    expect(compare("<", new StarList([1, 2]), new StarList([1, 3]))).toBe(true);
    expect(compare("<", new StarTuple([1]), new StarTuple([1, 0]))).toBe(true);
  });
  it("detects cycles", () => {
    const l = new StarList([1, 2, 3]);
    l.elems[1] = l;
    expect(str(l)).toBe("[1, [...], 3]");
    expect(err(() => equals(l, l))).toBe("comparison exceeded maximum recursion depth");
  });
  it("ranges compare by the sequence they denote", () => {
    expect(equals(new StarRange(0, 5, 10), new StarRange(0, 5, 11))).toBe(true);
    expect(equals(new StarRange(0, 0, 1), new StarRange(2, 1, 3))).toBe(true);
    expect(equals(new StarRange(1, 10, 1), new StarRange(2, 10, 1))).toBe(false);
  });
});

describe("hashing and dicts", () => {
  it("equal values hash equally (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (n) => {
        expect(hashValue(n)).toBe(hashValue(f(n)));
      }),
      { numRuns: 200 },
    );
  });
  it("treats 1 and 1.0 as one key, True separately, and keeps the first key", () => {
    const d = new StarDict();
    d.setKey(f(1), "a");
    d.setKey(1, "b");
    d.setKey(true, "c");
    expect(d.len()).toBe(2);
    expect(str(d)).toBe('{1.0: "b", True: "c"}');
    d.setKey(new StarTuple([1, "x"]), 1);
    expect(d.get(new StarTuple([f(1), "x"]))).toBe(1);
  });
  it("keeps insertion order, re-inserted keys go last (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 }))), (ops) => {
        const d = new StarDict();
        const model: number[] = [];
        for (const [del, k] of ops) {
          if (del) {
            d.ht.delete(k);
            const i = model.indexOf(k);
            if (i >= 0) model.splice(i, 1);
          } else {
            d.setKey(k, k);
            if (!model.includes(k)) model.push(k);
          }
        }
        expect(d.ht.keys()).toEqual(model);
      }),
      { numRuns: 200 },
    );
  });
  it("reports unhashable keys and missing keys", () => {
    const d = new StarDict();
    expect(err(() => d.setKey(new StarList(), 1))).toBe("unhashable type: list");
    expect(err(() => d.setKey(new StarTuple([new StarList()]), 1))).toBe("unhashable type: list");
    expect(err(() => getIndex(d, "a"))).toBe('key "a" not in dict');
    expect(err(() => d.setKey(new StarRange(0, 1, 1), 1))).toBe("unhashable: range");
    d.freeze();
    expect(err(() => setIndex(d, "a", 1))).toBe("cannot insert into frozen hash table");
  });
  it("blocks mutation during iteration", () => {
    const d = new StarDict();
    d.setKey(1, 1);
    const it = iterate(d);
    expect(err(() => d.setKey(2, 2))).toBe("cannot insert into hash table during iteration");
    expect(err(() => d.ht.delete(1))).toBe("cannot delete from hash table during iteration");
    it.done();
    d.setKey(2, 2);
  });
});

describe("sequences", () => {
  const abc = new StarList(["a", "b", "c"]);
  it("indexes with go's messages", () => {
    expect(getIndex(abc, -1)).toBe("c");
    expect(err(() => getIndex(abc, 3))).toBe("list index 3 out of range [-3:2]");
    expect(err(() => getIndex(abc, f(1)))).toBe("list index: got float, want int");
    expect(err(() => getIndex(new StarRange(0, 0, 2), 0))).toBe("index 0 out of range: empty range");
    expect(getIndex(encodeUtf8ToByteString("Hello, 世界!"), 7)).toBe("\xe4");
  });
  it("slices with steps", () => {
    expect(slice("banana", 7, None, -2)).toBe("aaa");
    expect(slice("banana", None, None, -1)).toBe("ananab");
    expect(slice("abcd", 4, 0, -1)).toBe("dcb");
    expect(str(slice(new StarRange(0, 10, 2), None, None, -2))).toBe("range(8, -2, -4)");
    expect(err(() => slice("banana", f(1), None, None))).toBe("invalid start index: got float, want int");
    expect(err(() => slice("banana", None, None, true))).toBe("invalid slice step: got bool, want int");
  });
  it("repeats with limits", () => {
    expect(err(() => binary("*", "abc", 1000000 * 1000000))).toBe("repeat count 1000000000000 too large");
    expect(err(() => binary("*", binary("*", "abc", 1000000), 1000000))).toBe(
      "excessive repeat (3000000 * 1000000 elements)",
    );
    expect(binary("*", -1, abc)).toEqual(new StarList([]));
  });
  it("size limits throw LimitError before allocating", () => {
    const t = new Thread({ limits: { maxStringLength: 100, maxCollectionSize: 10 } });
    const e1 = (() => {
      try {
        binary("*", "x", 101, t);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(e1).toBeInstanceOf(LimitError);
    expect((e1 as LimitError).kind).toBe("size");
    expect(() => binary("*", new StarList([1, 2]), 6, t)).toThrow(LimitError);
    // Past 2^30 elements it is go.starlark.net's own error, whatever the size limits.
    expect(() => binary("*", "x", 1 << 30)).toThrow("excessive repeat (1 * 1073741824 elements)");
    expect(binary("*", "", 1 << 40)).toBe("");
  });
  it("in operator", () => {
    expect(inOperator("oo", "food")).toBe(true);
    expect(err(() => inOperator(1, ""))).toBe("'in <string>' requires string as left operand, not int");
    expect(err(() => inOperator("", 1))).toBe("unknown binary op: string in int");
    expect(inOperator(f(2), new StarRange(0, 3, 1))).toBe(true);
    expect(err(() => inOperator(true, new StarRange(0, 3, 1)))).toMatch(/requires integer.*not bool/);
    expect(inOperator(new StarList(), new StarDict())).toBe(false);
  });
  it("list += extends in place; frozen lists refuse", () => {
    const l = new StarList([1]);
    expect(augmentedBinary("+", l, new StarTuple([2]))).toBe(l);
    expect(l.elems).toEqual([1, 2]);
    expect(err(() => augmentedBinary("+", l, 1))).toBe("unknown binary op: list + int");
    l.freeze();
    expect(err(() => augmentedBinary("+", l, new StarList([1])))).toBe("cannot apply += to frozen list");
  });
  it("sets", () => {
    const x = new StarSet([1, 2, 3]);
    const y = new StarSet([3, 4, 5]);
    expect(str(binary("|", x, y))).toBe("set([1, 2, 3, 4, 5])");
    expect(str(binary("^", x, y))).toBe("set([1, 2, 4, 5])");
    expect(err(() => binary("+", x, y))).toBe("unknown binary op: set + set");
    // Sets are ordered by inclusion (the newest go.starlark.net).
    expect(compare("<", x, y)).toBe(false);
    expect(compare("<", x, binary("|", x, y))).toBe(true);
    expect(compare("<=", x, x)).toBe(true);
    expect(compare("<", x, x)).toBe(false);
    expect(err(() => getIndex(x, 0))).toMatch(/^unhandled index operation/);
  });
});

describe("repr and % formatting", () => {
  it("quotes strings like Go", () => {
    expect(repr("x")).toBe('"x"');
    expect(repr('a"b\\\n\x00\x7f')).toBe('"a\\"b\\\\\\n\\x00\\x7f"');
    expect(repr("\xe4\xb8\x96")).toBe('"\xe4\xb8\x96"');
    expect(repr("\xff")).toBe('"\\xff"');
    expect(repr(new StarTuple([1]))).toBe("(1,)");
    expect(repr(new StarRange(0, 10, -1))).toBe("range(0, 10, -1)");
  });
  it.each<[string, Value, string]>([
    ["%o %x %d", new StarTuple([0o755, 0xdeadbeef, 42]), "755 deadbeef 42"],
    ["%x %X", new StarTuple([-95, -95]), "-5f -5F"],
    ["%o %x %d", new StarTuple([f(123.1), f(123.1), f(123.1)]), "173 7b 123"],
    ["%d", f(1.23e45), "1229999999999999973814869011019624571608236032"],
    ["%s %r", new StarTuple(["hi", "hi"]), 'hi "hi"'],
    ["%%d %d", 1, "%d 1"],
    ["%c%c", new StarTuple([65, "\xce\xb1"]), "A\xce\xb1"],
    ["%e", 0, "0.000000e+00"],
    ["%g", f(1e6), "1e+06"],
    [
      "%(foo)d %(bar)s",
      dictOf([
        ["foo", 123],
        ["bar", "hi"],
      ]),
      "123 hi",
    ],
  ])("%s", (fmt, arg, want) => {
    expect(percentFormat(fmt, arg)).toBe(want);
  });
  it.each<[string, Value, string]>([
    ["%d %d", 1, "not enough arguments for format string"],
    ["%d %d", new StarTuple([1, 2, 3]), "too many arguments for format string"],
    ["", 1, "too many arguments for format string"],
    ["%d", true, "cannot convert bool to int"],
    ["%d", f(Number.NaN), "cannot convert float NaN to integer"],
    ["%e", "123", "requires float, not str"],
    ["%c", "abc", "requires a single-character string"],
    ["%c", f(65), "requires int or single-character string"],
    ["%c", 10000000, "requires a valid Unicode code point"],
  ])("%s %% %s fails", (fmt, arg, want) => {
    expect(err(() => percentFormat(fmt, arg))).toContain(want);
  });
});

function dictOf(entries: [Value, Value][]): StarDict {
  const d = new StarDict();
  for (const [k, v] of entries) d.setKey(k, v);
  return d;
}

describe("compareForSort", () => {
  it("agrees with the < and == operators on mixed numbers, strings and tuples (property)", () => {
    const scalar = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.double({ min: -5, max: 5, noNaN: false }).map((x) => new StarFloat(x) as Value),
    );
    const val: fc.Arbitrary<Value> = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }).map((xs) => new StarTuple(xs) as Value),
    );
    fc.assert(
      fc.property(val, val, (x, y) => {
        const sameKind = x instanceof StarTuple === y instanceof StarTuple;
        if (!sameKind) return;
        const c = compareForSort(x, y);
        expect(c < 0).toBe(compare("<", x, y));
        expect(c > 0).toBe(compare(">", x, y));
      }),
      { numRuns: 300 },
    );
  });
  it("still rejects unordered top-level values but skips equal ones inside tuples", () => {
    expect(err(() => compareForSort(None, None))).toBe("NoneType < NoneType not implemented");
    expect(compareForSort(new StarTuple([1, new StarDict()]), new StarTuple([1, new StarDict()]))).toBe(0);
  });
});

describe("newer go.starlark.net additions", () => {
  it("dict union | and |=", () => {
    const a = new StarDict();
    a.setKey("a", 1);
    const b = new StarDict();
    b.setKey("a", 2);
    b.setKey("b", 3);
    expect(str(binary("|", a, b))).toBe('{"a": 2, "b": 3}');
    expect(str(a)).toBe('{"a": 1}');
    expect(augmentedBinary("|", a, b)).toBe(a);
    expect(str(a)).toBe('{"a": 2, "b": 3}');
  });
});

describe("repr size limit", () => {
  it("stops exponential repr output with a LimitError", () => {
    let x: Value = new StarList([1]);
    for (let i = 0; i < 40; i++) x = new StarList([x, x]);
    const t = new Thread({ limits: { maxStringLength: 1 << 20 } });
    expect(() => repr(x, t)).toThrow(LimitError);
  });
});

describe("int size limit", () => {
  it("refuses runaway big ints", () => {
    let x: Value = binary("<<", 1, 511);
    expect(() => {
      for (let i = 0; i < 40; i++) x = binary("*", x, x);
    }).toThrow(LimitError);
  });
});

describe("deep and shared structures", () => {
  it("freezes very deep nesting without overflowing the stack", () => {
    let x: Value = new StarList([]);
    for (let i = 0; i < 200000; i++) x = new StarList([x]);
    (x as StarList).freeze();
    expect((x as StarList).frozen).toBe(true);
  });
  it("hashes and freezes DAGs of shared tuples in linear time", () => {
    let x: Value = new StarTuple([1]);
    for (let i = 0; i < 60; i++) x = new StarTuple([x, x]);
    const d = new StarDict();
    d.setKey(x, 1);
    expect(d.get(x)).toBe(1);
    (x as StarTuple).freeze();
  });
});

describe("repr of very deep nesting", () => {
  it("fails with a Starlark error, not a JS stack overflow", () => {
    let x: Value = new StarList([]);
    for (let i = 0; i < 200000; i++) x = new StarList([x]);
    expect(() => repr(x)).toThrow(StarEvalError);
  });
});
