import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import type { Dialect } from "../resolve/dialect.js";
import { StarlarkSyntaxErrors } from "../syntax/position.js";
import {
  callValue,
  LimitError,
  type Limits,
  None,
  EvalError as StarEvalError,
  StarlarkError,
  Thread,
} from "../values/index.js";

function run(
  src: string,
  dialect: Dialect = {},
  limits: Partial<Limits> = {},
  predeclared: string[] = [],
): string {
  let out = "";
  const program = compile(src, { filename: "t.star", dialect, predeclared });
  program.init(new Thread({ print: (_t, m) => (out += `${m}\n`), limits }), {});
  return out;
}

function runError(
  src: string,
  dialect: Dialect = {},
  limits: Partial<Limits> = {},
  predeclared: string[] = [],
): StarlarkError {
  try {
    run(src, dialect, limits, predeclared);
  } catch (e) {
    if (e instanceof StarlarkError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("evaluator", () => {
  it("evaluates arithmetic, strings, collections and comprehensions", () => {
    expect(
      run(
        "print(1 + 2 * 3, 7 // 2, -7 // 2, -7 % 3, 2**62 if False else 1 << 62)".replace(
          "2**62 if False else ",
          "",
        ),
      ),
    ).toBe("7 3 -4 2 4611686018427387904\n");
    expect(
      run('x = [i * i for i in range(5) if i % 2 == 0]\nprint(x, {k: len(k) for k in ["a", "bb"]})'),
    ).toBe('[0, 4, 16] {"a": 1, "bb": 2}\n');
    expect(run("a, b = 1, 2\na2, b2 = b, a\nprint(a2, b2, (1, 2) + (3,))")).toBe("2 1 (1, 2, 3)\n");
    expect(run('print("%s-%d" % ("x", 3), "a" in "abc", 9007199254740993 - 1)')).toBe(
      "x-3 True 9007199254740992\n",
    );
  });

  it("binds arguments like go.starlark.net", () => {
    const src =
      "def f(a, b=2, *args, c, **kw):\n  return (a, b, args, c, kw)\nprint(f(1, c=3))\nprint(f(1, 2, 3, 4, c=5, z=6))\n";
    expect(run(src)).toBe('(1, 2, (), 3, {})\n(1, 2, (3, 4), 5, {"z": 6})\n');
    expect(runError("def f(a): pass\nf(1, 2)").message).toBe(
      "function f accepts 1 positional argument (2 given)",
    );
    expect(runError("def f(a, b=1): pass\nf()").message).toBe("function f missing 1 argument (a)");
    expect(runError("def f(a): pass\nf(1, a=2)").message).toBe(
      'function f got multiple values for parameter "a"',
    );
    expect(runError("def f(a): pass\nf(b=2)").message).toBe(
      'function f got an unexpected keyword argument "b"',
    );
    expect(runError("def f(): pass\nf(1, x=2)").message).toBe("function f accepts no arguments (2 given)");
    expect(runError("x = p\n", {}, {}, ["p"]).message).toBe(
      "internal error: predeclared variable p is uninitialized",
    );
  });

  it("captures variables in closures by reference", () => {
    const src =
      "def counter():\n  n = [0]\n  def inc():\n    n[0] += 1\n    return n[0]\n  return inc\nc = counter()\nc()\nprint(c())\n";
    expect(run(src)).toBe("2\n");
    expect(runError("def f():\n  def g():\n    return x\n  r = g()\n  x = 1\n  return r\nf()").message).toBe(
      "local variable x referenced before assignment",
    );
  });

  it("rejects recursion unless the dialect allows it", () => {
    const src = "def fib(n):\n  if n < 2:\n    return n\n  return fib(n - 1) + fib(n - 2)\nprint(fib(15))\n";
    expect(runError(src).message).toBe("function fib called recursively");
    expect(run(src, { recursion: true })).toBe("610\n");
  });

  it("freezes module globals after init", () => {
    const program = compile("x = [1]\ndef add():\n  x.append(2)\n", { filename: "t.star" });
    const thread = new Thread();
    const module = program.init(thread, {});
    const add = module.get("add");
    expect(add).toBeDefined();
    expect(() => callValue(thread, add ?? None, [], [])).toThrow(/cannot append to frozen list/);
  });

  it("attaches a Starlark backtrace with file:line:col and function names", () => {
    const err = runError("def inner():\n  return 1 // 0\ndef outer():\n  return inner()\nouter()\n");
    expect(err).toBeInstanceOf(StarEvalError);
    expect(err.message).toBe("floored division by zero");
    expect(err.backtrace()).toBe(
      "Traceback (most recent call last):\n  t.star:5:6: in <toplevel>\n  t.star:4:15: in outer\n  t.star:2:12: in inner\nError: floored division by zero",
    );
  });
});

describe("limits", () => {
  const loop = "def f():\n  for i in range(1000000000):\n    pass\nf()\n";

  it("stops an endless loop at the step budget", () => {
    const err = runError(loop, {}, { maxSteps: 100_000 });
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).kind).toBe("steps");
    expect(err.message).toMatch(/too many steps/);
  });

  it("builds dict literals with literal string keys like any other dict", () => {
    const src = [
      'm = {"name": "n1", "zone": "z", "cpu": {"total": 4, "used": 1}}',
      'm["extra"] = 1',
      'm.pop("zone")',
      'm["zone"] = "z2"',
      'print(m, len(m), "cpu" in m, m["cpu"]["used"], list(m.keys()))',
      "def f():",
      '  return {"a": 1, "b": 2}',
      "x = f()",
      "y = f()",
      'x["a"] = 9',
      "print(x, y, x == y)",
    ].join("\n");
    expect(run(src)).toBe(
      '{"name": "n1", "cpu": {"total": 4, "used": 1}, "extra": 1, "zone": "z2"} 4 True 1 ["name", "cpu", "extra", "zone"]\n' +
        '{"a": 9, "b": 2} {"a": 1, "b": 2} False\n',
    );
    const shapes = [
      'ds = [{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"x": "b", "b": 5}, {"b": 6}, dict(b=7), {"c": 1}]',
      'ds[0].pop("a")',
      "def lookups():",
      "  out = []",
      "  for d in ds + ds:",
      '    out.append(d["b"] if "b" in d else None)',
      "  return out",
      "print(lookups())",
    ].join("\n");
    expect(run(shapes)).toBe("[2, 3, 5, 6, 7, None, 2, 3, 5, 6, 7, None]\n");
    expect(runError('def f(d):\n  return d["b"]\nf({"b": 1})\nf({"a": "b"})\n').message).toBe(
      'key "b" not in dict',
    );
    expect(runError('d = {"a": 1, "b": 2, "a": 3}\n').message).toBe('duplicate key: "a"');
    const tooBig = runError('d = {"a": 1, "b": 2, "c": 3}\n', {}, { maxCollectionSize: 2 });
    expect(tooBig.message).toMatch(/collection too large: 3 elements exceeds the limit of 2/);
    expect(tooBig.frames[0]?.pos).toEqual({ filename: "t.star", line: 1, col: 25 }); // the colon, as upstream
    const copyTooBig = "def f():\n  d = {i: i for i in range(40)}\n  return dict(d, extra=1)\nf()\n";
    expect(runError(copyTooBig, {}, { maxCollectionSize: 40 }).message).toMatch(
      /collection too large: 41 elements/,
    );
    expect(run('d = {"a": 1}\ne = dict(d)\ne["b"] = 2\nprint(d, e, dict(e, c=3))\n')).toBe(
      '{"a": 1} {"a": 1, "b": 2} {"a": 1, "b": 2, "c": 3}\n',
    );
    expect(run('d = {"a": 1, "b": 2}\nd.update(c=3)\nprint(d)\n', {}, { maxCollectionSize: 3 })).toBe(
      '{"a": 1, "b": 2, "c": 3}\n',
    );
  });

  it("stops an endless loop at the deadline", () => {
    const err = runError(loop, {}, { deadline: Date.now() + 50 });
    expect((err as LimitError).kind).toBe("deadline");
  });

  it("stops on an aborted signal", () => {
    const ac = new AbortController();
    ac.abort();
    const err = runError(loop, {}, { signal: ac.signal });
    expect((err as LimitError).kind).toBe("aborted");
  });

  it("fails huge strings and unbounded list growth with a size error", () => {
    expect(runError('x = "x" * (1 << 40)\n').message).toMatch(/too large|excessive repeat/);
    const doubling = "def f():\n  x = [1]\n  for i in range(100):\n    x = x + x\nf()\n";
    expect(runError(doubling, {}, { maxCollectionSize: 1 << 20 }).message).toMatch(/collection too large/);
    const inPlace = "def f():\n  x = [1]\n  for i in range(100):\n    x += x\nf()\n";
    expect(runError(inPlace, {}, { maxCollectionSize: 1 << 20 }).message).toMatch(/collection too large/);
    const dictComp = "def f():\n  d = {i: i for i in range(20000)}\nf()\n";
    expect(runError(dictComp, {}, { maxCollectionSize: 1000 }).message).toMatch(/collection too large/);
    const dictGrowth = "def f():\n  d = {}\n  for i in range(20000):\n    d[i] = i\nf()\n";
    expect(runError(dictGrowth, {}, { maxCollectionSize: 1000 }).message).toMatch(/collection too large/);
    const str = 'def f():\n  s = "ab"\n  for i in range(100):\n    s = s + s\nf()\n';
    expect(runError(str, {}, { maxStringLength: 1 << 20 }).message).toMatch(/string too large/);
  });

  it("rejects very long operator chains with a syntax error, never a JS stack overflow", () => {
    for (const n of [1000, 5000, 50_000]) {
      const src = `x = ${Array.from({ length: n }, () => "1").join(" + ")}\nprint(x)\n`;
      try {
        expect(run(src)).toBe(`${n}\n`);
      } catch (e) {
        expect(e).toBeInstanceOf(StarlarkSyntaxErrors);
        expect((e as StarlarkSyntaxErrors).errors[0]?.msg).toBe("program too deeply nested");
      }
    }
  });

  it("turns runaway recursion into a Starlark error and stays usable", () => {
    const err = runError("def f(n):\n  return f(n + 1)\nf(0)\n", { recursion: true });
    expect(err.message).toMatch(/stack overflow/);
    expect(err.frames.length).toBeLessThan(100);
    expect(run("print(1)")).toBe("1\n");
  });
});
