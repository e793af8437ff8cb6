import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { callValue, None, repr, StarlarkError, Thread } from "../values/index.js";

/** Dicts from one literal share its keys array until one of them changes (see hashtable.ts). */
function run(src: string): string {
  let out = "";
  compile(src, { filename: "t.star", dialect: { set: true, topLevelControl: true } }).init(
    new Thread({ print: (_t, m) => (out += `${m}\n`) }),
    {},
  );
  return out;
}

function runError(src: string): string {
  try {
    run(src);
  } catch (e) {
    if (e instanceof StarlarkError) return e.message;
    throw e;
  }
  throw new Error("no error");
}

const MAKE = `
def mk(i):
    return {"a": i, "b": str(i), "c": [i]}
ds = [mk(i) for i in range(4)]
`;

describe("dicts built by one literal", () => {
  it("change independently of each other, keeping insertion order", () => {
    const out = run(`${MAKE}
ds[0]["a"] = 10
ds[1]["z"] = 11
ds[2].pop("a")
ds[3].clear()
ds[3]["b"] = 1
for d in ds:
    print(d, len(d), list(d), d.keys(), d.values(), d.items())
print(mk(9))
`);
    expect(out).toBe(
      [
        '{"a": 10, "b": "0", "c": [0]} 3 ["a", "b", "c"] ["a", "b", "c"] [10, "0", [0]] [("a", 10), ("b", "0"), ("c", [0])]',
        '{"a": 1, "b": "1", "c": [1], "z": 11} 4 ["a", "b", "c", "z"] ["a", "b", "c", "z"] [1, "1", [1], 11] [("a", 1), ("b", "1"), ("c", [1]), ("z", 11)]',
        '{"b": "2", "c": [2]} 2 ["b", "c"] ["b", "c"] ["2", [2]] [("b", "2"), ("c", [2])]',
        '{"b": 1} 1 ["b"] ["b"] [1] [("b", 1)]',
        '{"a": 9, "b": "9", "c": [9]}',
        "",
      ].join("\n"),
    );
  });

  it("answer lookups, get, in, setdefault, popitem, update and copies like any dict", () => {
    const out = run(`${MAKE}
d = ds[0]
print(d["b"], d.get("c"), d.get("x", 5), "a" in d, "x" in d, 1 in d)
e = dict(d)
e["a"] = 7
print(d["a"], e["a"], e, dict(**ds[1]) == ds[1], d == mk(0), d != mk(1))
print(d.setdefault("a", 3), d.setdefault("n", 4), d)
f = mk(5)
print(f.popitem(), f)
g = mk(6)
g.update({"c": 0, "q": 1})
print(g)
print({k: v for k, v in mk(2).items()}, sorted(mk(3)), [k for k in mk(1)])
`);
    expect(out).toBe(
      [
        "0 [0] 5 True False False",
        '0 7 {"a": 7, "b": "0", "c": [0]} True True True',
        '0 4 {"a": 0, "b": "0", "c": [0], "n": 4}',
        '("a", 5) {"b": "5", "c": [5]}',
        '{"a": 6, "b": "6", "c": 0, "q": 1}',
        '{"a": 2, "b": "2", "c": [2]} ["a", "b", "c"] ["a", "b", "c"]',
        "",
      ].join("\n"),
    );
  });

  it("grow past the size that needs an index once changed (16-key literal plus more)", () => {
    const keys = Array.from({ length: 16 }, (_, i) => `k${i}`);
    const literal = `{${keys.map((k, i) => `"${k}": ${i}`).join(", ")}}`;
    const out = run(`
def mk():
    return ${literal}
a = mk()
b = mk()
for i in range(16, 40):
    a["k%d" % i] = i
a.pop("k3")
print(len(a), a["k0"], a["k15"], a["k39"], "k3" in a, list(a)[:4], len(b), b["k3"], list(b)[-1])
`);
    expect(out).toBe('39 0 15 39 False ["k0", "k1", "k2", "k4"] 16 3 k15\n');
  });

  it("m[field] sites give the right values across shaped and own-layout dicts", () => {
    // The site remembers where it last found the key; a dict whose value equals a key name
    // must not be mistaken for the key itself.
    const out = run(`
def field(m):
    return m["b"]
xs = [{"a": "b", "b": 1}, {"b": 2, "a": "b"}, {"a": "b", "b": 3}]
xs[2]["c"] = 0
ys = [{"x": "b", "b": "b"}]
print([field(m) for m in xs + ys + xs])
`);
    expect(out).toBe('[1, 2, 3, "b", 1, 2, 3]\n');
  });

  it("keep frozen, iteration and unhashable-key errors", () => {
    expect(
      runError(`${MAKE}
for k in ds[0]:
    ds[0]["n"] = 1
`),
    ).toContain("cannot insert into hash table during iteration");
    expect(
      runError(`${MAKE}
for k in ds[0]:
    ds[0].pop("a")
`),
    ).toContain("cannot delete from hash table during iteration");
    expect(runError(`${MAKE}\nds[0][[1]] = 2\n`)).toContain("unhashable type: list");
    expect(runError(`${MAKE}\nds[0]["q"]\n`)).toContain('key "q" not in dict');
  });

  it("refuse changes once frozen (module globals are frozen after init)", () => {
    const thread = new Thread({ print: () => {} });
    const module = compile(
      `
d = {"a": 1, "b": 2}
def put():
    d["a"] = 3
def drop():
    d.pop("b")
def read():
    return [d["a"], d.get("b"), list(d.items())]
`,
      { filename: "frozen.star" },
    ).init(thread, {});
    const fn = (name: string) => module.get(name) ?? None;
    expect(() => callValue(thread, fn("put"), [], [])).toThrow(/cannot insert into frozen hash table/);
    expect(() => callValue(thread, fn("drop"), [], [])).toThrow(/cannot delete from frozen hash table/);
    expect(repr(callValue(thread, fn("read"), [], []))).toBe('[1, 2, [("a", 1), ("b", 2)]]');
  });
});
