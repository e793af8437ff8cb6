import { describe, expect, it } from "vitest";
import {
  encodeUtf8ToByteString as b,
  callMethod,
  iterableToArray,
  None,
  repr,
  StarEvalError,
  StarTuple,
  str,
  Thread,
  type Value,
} from "../index.js";

const t = new Thread();
const call = (recv: string, name: string, args: Value[] = [], kwargs: [string, Value][] = []): Value => {
  const r = callMethod(t, recv, name, args, kwargs);
  if (r === undefined) throw new Error(`no method ${name}`);
  return r;
};
const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StarEvalError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("string methods", () => {
  it.each<[string, string, Value[], string]>([
    ["a.b.c.d", "split", ["."], '["a", "b", "c", "d"]'],
    ["a.b.c.d", "rsplit", [".", 2], '["a.b", "c", "d"]'],
    ["--aa--bb--cc--", "rsplit", ["-", 1], '["--aa--bb--cc-", ""]'],
    [" a bc\n  def \t  ghi", "rsplit", [None, 1], '[" a bc\\n  def", "ghi"]'],
    ["  aa  bb  cc  ", "split", [None, 0], '["aa  bb  cc  "]'],
    ["  ", "split", [], "[]"],
    ["\nabc\ndef\n", "splitlines", [true], '["\\n", "abc\\n", "def\\n"]'],
    ["blah.h", "strip", ["b.h"], '"la"'],
    [" \tfoo\n ", "rstrip", [], '" \\tfoo"'],
    ["banana", "count", ["a", -4, -2], "1"],
    ["foofoo", "rfind", ["oo", 1, 4], "1"],
    ["foofoo", "rfind", [""], "6"],
    ["foo/bar/wiz", "rpartition", ["/"], '("foo/bar", "/", "wiz")'],
    ["banana", "replace", ["a", "o", 1], '"bonana"'],
    ["abc", "replace", ["", "-"], '"-a-b-c-"'],
    ["hElLo, WoRlD!", "capitalize", [], '"Hello, world!"'],
    ["hElLo, WoRlD!", "title", [], '"Hello, World!"'],
    ["abc", "endswith", ["ab", None, -1], "True"],
    ["ABC", "startswith", [new StarTuple(["a", "A"])], "True"],
    ["abc", "removeprefix", ["ab"], '"c"'],
  ])("%j.%s(%j) = %s", (recv, name, args, want) => {
    expect(repr(call(recv, name, args))).toBe(want);
  });

  it("handles non-ASCII rune-wise", () => {
    expect(call(b("por qué"), "upper")).toBe(b("POR QUÉ"));
    expect(call(b("ǉubović"), "title")).toBe(b("ǈubović"));
    expect(call(b("ǅenan ǈubović"), "istitle")).toBe(true);
    expect(call(b("Ǆenan Ǉubović"), "istitle")).toBe(false);
    expect(call(b("ǄENAN ǇUBOVIĆ"), "isupper")).toBe(true);
    expect(iterableToArray(call(b("abcЙ😿"), "codepoint_ords"))).toEqual([97, 98, 99, 1049, 128575]);
    expect(str(call(b("abc"), "elems"))).toBe('"abc".elems()');
  });

  it("reports go.starlark.net's errors", () => {
    expect(err(() => call("x", "partition", [""]))).toBe("partition: empty separator");
    expect(err(() => call("123", "startswith", [new StarTuple([1, 2])]))).toBe(
      "startswith: want string, got int, for element 0",
    );
    expect(err(() => call("", "join", [new StarTuple(["one", 2])]))).toBe(
      "join: in list, want string, got int",
    );
    expect(err(() => call("", "splitlines", [1]))).toContain("got int, want bool");
    expect(err(() => call("abc", "index", ["z"]))).toBe("index: substring not found");
    expect(call(b("\u00a0 x\u2003"), "strip")).toBe("x");
    expect(repr(call(b("a\u00a0b c\u3000"), "split"))).toBe('["a", "b", "c"]');
    expect(repr(call(b("a\u00a0b c"), "rsplit", [None, 1]))).toBe('["a\\u00a0b", "c"]');
    expect(callMethod(t, "", "get", [], [])).toBeUndefined();
  });
});

describe("str.format", () => {
  const fmt = (f: string, args: Value[] = [], kwargs: [string, Value][] = []) =>
    call(f, "format", args, kwargs);
  it("substitutes", () => {
    expect(
      fmt(
        "a{x}b{y}c{}",
        [1],
        [
          ["x", 2],
          ["y", 3],
        ],
      ),
    ).toBe("a2b3c1");
    expect(fmt("a{{b}}c")).toBe("a{b}c");
    expect(fmt("{0000000000001}", [0, 1])).toBe("1");
    expect(fmt("{!r} {!s}", ["x", "y"])).toBe('"x" y');
  });
  it.each<[string, Value[], string]>([
    ["{-1}", [1], "keyword -1 not found"],
    ["a{123}b", [], "tuple index out of range"],
    ["a{}b{1}c", [1, 2], "cannot switch from automatic field numbering to manual field specification"],
    // The name is looked up before the conversion is checked, as upstream does.
    ["{x!}", [], "format: keyword x not found"],
    ["{0!}", [1], 'format: unknown conversion ""'],
    ["{a.b}", [1], "attribute syntax x.y is not supported in replacement fields"],
    ["{a[0]}", [1], "element syntax a[i] is not supported in replacement fields"],
    ["{ {} }", [1], "nested replacement fields not supported"],
    ["{{}", [1], "single '}' in format"],
    ["}}{", [1], "unmatched '{' in format"],
  ])("%s fails", (f, args, want) => {
    expect(err(() => fmt(f, args))).toContain(want);
  });
  it("reports an argument error in a field before a syntax error later in the string", () => {
    // The parsed form is cached; errors must still come in left-to-right order.
    for (let round = 0; round < 2; round++) {
      expect(err(() => fmt("{1} }", [0]))).toContain("tuple index out of range");
      expect(err(() => fmt("{1} }", [0, 1]))).toContain("single '}' in format");
      expect(
        err(() =>
          fmt(
            "{k} {x!q}",
            [],
            [
              ["k", 1],
              ["x", 2],
            ],
          ),
        ),
      ).toBe('format: unknown conversion "q"');
      expect(err(() => fmt("{k} {x!q}", [], [["k", 1]]))).toBe("format: keyword x not found");
      expect(err(() => fmt("{k} {x!q}", []))).toContain("keyword k not found");
    }
  });
  it("formats a cached format string with each call's own arguments", () => {
    expect(fmt("{} has {} slots in {}", ["a", 1, "b"])).toBe("a has 1 slots in b");
    expect(fmt("{} has {} slots in {}", ["c", 2, "d"])).toBe("c has 2 slots in d");
    expect(fmt("{0}{1}{0}", ["x", "y"])).toBe("xyx");
    expect(fmt("{0}{1}{0}", ["p", "q"])).toBe("pqp");
    expect(fmt("{n!r}", [], [["n", "v"]])).toBe('"v"');
    expect(fmt("{n!r}", [], [["n", 3]])).toBe("3");
  });
  it("formats strings longer than the cached ones", () => {
    const long = `${"x".repeat(2000)}{}`;
    expect(fmt(long, [1])).toBe(`${"x".repeat(2000)}1`);
    expect(fmt(long, [2])).toBe(`${"x".repeat(2000)}2`);
  });
});

describe("set methods", () => {
  it("add/remove/discard/pop and the algebra", async () => {
    const { StarSet } = await import("../index.js");
    const s = new StarSet([1, 2, 3]);
    callMethod(t, s, "add", [4], []);
    callMethod(t, s, "discard", [1], []);
    expect(repr(s)).toBe("set([2, 3, 4])");
    expect(err(() => callMethod(t, s, "remove", [9], []))).toBe("remove: missing key");
    expect(repr(callMethod(t, s, "union", [new StarTuple([5])], []) as Value)).toBe("set([2, 3, 4, 5])");
    expect(repr(callMethod(t, s, "intersection", [new StarTuple([3, 4, 9])], []) as Value)).toBe(
      "set([3, 4])",
    );
    expect(repr(callMethod(t, s, "difference", [new StarTuple([3])], []) as Value)).toBe("set([2, 4])");
    expect(callMethod(t, s, "issubset", [new StarTuple([2, 3, 4, 5])], [])).toBe(true);
    expect(callMethod(t, s, "pop", [], [])).toBe(2);
    s.freeze();
    expect(err(() => callMethod(t, s, "add", [1], []))).toBe("add: cannot insert into frozen hash table");
    // Upstream checks that an empty set has nothing to clear before it checks for a frozen one.
    const empty = new StarSet();
    empty.freeze();
    expect(callMethod(t, empty, "clear", [], [])).toBe(None);
    expect(err(() => callMethod(t, s, "clear", [], []))).toBe("clear: cannot clear frozen hash table");
  });
});
