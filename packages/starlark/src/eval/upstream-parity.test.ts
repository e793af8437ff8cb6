/**
 * Behaviour of the newest go.starlark.net (529d8e8) that issue #19 lists, checked literally.
 * Where the wording and upstream differ, upstream's test data decides: `b[i]` is a
 * one-byte bytes value (bytes.star: `goodbye[0] == b"g"`), and slice indices beyond the 32-bit
 * range are an error (`AsInt32`), while ranges themselves span 64 bits.
 */
import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import { mathModule } from "../math/index.js";
import { timeModule } from "../time/index.js";
import { Thread } from "../values/index.js";

function run(src: string): string {
  let out = "";
  compile(src, { filename: "t.star", predeclared: ["json", "math", "time"], dialect: { set: true } }).init(
    new Thread({ print: (_t, m) => (out += `${m}\n`) }),
    { json: jsonModule, math: mathModule, time: timeModule },
  );
  return out;
}

describe("the newest go.starlark.net's behaviour", () => {
  it("compares sets with < <= > >= (subset and superset)", () => {
    expect(
      run(
        "print(set([1]) < set([1, 2]), set([1, 2]) <= set([1, 2]), set([1, 2]) > set([1]), set([1]) >= set([1, 2]), set([1, 2]) < set([1, 2]))",
      ),
    ).toBe("True True True False False\n");
  });

  it("clears an empty frozen set, as upstream only checks mutability when there is something to clear", () => {
    let out = "";
    const thread = new Thread({ print: (_t, m) => (out += `${m}\n`) });
    const lib = compile("empty = set()\nfull = set([1])\n", { filename: "lib.star", dialect: { set: true } });
    const module = lib.init(thread, {});
    const globals = module.globals as Map<string, never>;
    for (const v of globals.values()) (v as { freeze(): void }).freeze();
    const prog = compile("empty.clear()\nprint(empty)\nprint(full.clear())\n", {
      filename: "t.star",
      predeclared: ["empty", "full"],
      dialect: { set: true },
    });
    expect(() => prog.init(thread, Object.fromEntries(globals))).toThrow(
      "clear: cannot clear frozen hash table",
    );
    expect(out).toBe("set([])\n");
  });

  it("hashes bytes by value, indexes them to one-byte bytes, and decodes \\u escapes in b-literals", () => {
    expect(run('d = {b"ab": 1}\nd[b"a" + b"b"] = 2\nprint(len(d), d[b"ab"], len(set([b"x", b"x"])))')).toBe(
      "1 2 1\n",
    );
    expect(run('print(repr(b"abc"[1]), repr(b"abc"[-1]), type(b"abc"[0]))')).toBe('b"b" b"c" bytes\n');
    expect(run('print(repr(b"\\u00e9\\U0001F600"), len(b"\\u00e9"), len(b"\\U0001F600"))')).toBe(
      'b"é😀" 2 4\n',
    );
    // hash(bytes) is 32-bit FNV-1a (bytes.star), not the string hash.
    expect(run('print(hash(b"abc"), hash(b""), hash(b"abc") == hash("abc"), ord(b"a"))')).toBe(
      "440920331 2166136261 False 97\n",
    );
    expect(
      run('print(repr(b"\\xff\\xfe"), repr(str(b"\\xffa")), list(b"ab".elems()), type(b"ab".elems()))'),
    ).toBe('b"\\xff\\xfe" "\uFFFDa" [97, 98] bytes.elems\n');
  });

  it("spans 64 bits in range(), and prints empty range slices as upstream", () => {
    // `in` converts its operand with AsInt32 upstream, so a 64-bit member is not found.
    expect(
      run(
        "print(range(0, 4000000000, 1000000000)[3], len(range(5000000000)), 4000000000 in range(5000000000))",
      ),
    ).toBe("3000000000 5000000000 False\n");
    expect(run("print(range(3)[1:1], range(0, 10, 2)[10:], range(1, 5, 2)[2:], range(0))")).toBe(
      "range(1, 1) range(10, 10, 2) range(5, 5, 2) range(0)\n",
    );
  });

  it("writes print()'s bytes as they are to a printBytes hook", () => {
    const chunks: string[] = [];
    compile('print("é"[:1], "x")', { filename: "t.star" }).init(
      new Thread({ print: () => {}, printBytes: (_t, bytes) => chunks.push(bytes) }),
      {},
    );
    expect(chunks).toEqual(["\xc3 x"]);
  });

  it("maps case as Go's unicode package does (one rune to one rune)", () => {
    expect(
      run('print("İ".lower(), "ǅ".upper(), "ǅ".lower(), "ß".upper(), "ﬃ".upper(), "Σ".lower(), "ǆ".title())'),
    ).toBe("i Ǆ ǆ ß ﬃ σ ǅ\n");
  });

  it("encodes JSON as upstream: HTML-safe escapes only in strings that are not printable ASCII", () => {
    expect(
      run(
        'print(json.encode("<a & b>"), json.encode("<é & >"), json.encode("a\\u2028"), json.encode("\\t<"))',
      ),
    ).toBe('"<a & b>" "\\u003cé \\u0026 \\u003e" "a\\u2028" "\\t\\u003c"\n');
  });

  it("keeps json.indent's trailing whitespace, and offers encode_indent and decode(default=)", () => {
    expect(run("print(repr(json.indent('{\"a\": [1, 2]}  ')))")).toBe(
      '"{\\n\\t\\"a\\": [\\n\\t\\t1,\\n\\t\\t2\\n\\t]\\n}  "\n',
    );
    expect(run('print(json.encode_indent({"b": [], "a": [1, {}]}, prefix="> ", indent="  "))')).toBe(
      '{\n>   "a": [\n>     1,\n>     {}\n>   ],\n>   "b": []\n> }\n',
    );
    expect(
      run(
        'print(json.decode("[1,", default=None), json.decode("{}", default=7), json.decode("[1]", default=7))',
      ),
    ).toBe("None {} [1]\n");
  });

  it("offers the math and time modules", () => {
    expect(
      run("print(math.floor(2.5), math.sqrt(16), math.pow(2, 10), math.round(-2.5), math.gamma(5))"),
    ).toBe("2 4.0 1024.0 -3.0 24.0\n");
    expect(
      run(
        'print(time.parse_duration("1h30m"), time.from_timestamp(0).unix, time.time(year=2020, month=2, day=30).format("2006-01-02"))',
      ),
    ).toBe("1h30m0s 0 2020-03-01\n");
  });
});
