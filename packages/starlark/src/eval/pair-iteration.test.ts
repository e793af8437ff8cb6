import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { type Limits, StarlarkError, Thread } from "../values/index.js";

function run(src: string, limits: Partial<Limits> = {}): string {
  let out = "";
  const program = compile(src, { filename: "t.star", predeclared: [], dialect: { globalReassign: true } });
  try {
    program.init(new Thread({ print: (_t, m) => (out += `${m}\n`), limits }), {});
  } catch (e) {
    if (e instanceof StarlarkError) return `${out}error: ${e.message}`;
    throw e;
  }
  return out;
}

/** The same loops through global aliases of the built-ins: the general path (tuples built, then unpacked). */
function viaTuples(src: string): string {
  const aliased = src
    .replace(/ in enumerate\(/g, " in ENUM(")
    .replace(/ in zip\(/g, " in ZIP(")
    .replace(/ in (\w+)\.items\(\)/g, " in ($1).items()");
  return `ENUM = enumerate\nZIP = zip\n${aliased}`;
}

const programs = [
  // loops and comprehensions over lists, tuples, frozen lists, unequal lengths
  `def f():
    xs = [10, 20, 30]
    out = []
    for i, x in enumerate(xs):
        out.append((i, x))
    print(out, [(i, x) for i, x in enumerate(("a", "b"))], [a + b for a, b in zip(xs, [1, 2])])
    print({k: v for k, v in zip(["p", "q"], (1, 2, 3))}, [i for i, x in enumerate(xs) if x > 10 for j in range(i)])
f()`,
  // mutating the enumerated list inside the loop: the built-in's result was a copy
  `def f():
    xs = [1, 2, 3]
    for i, x in enumerate(xs):
        xs.append(x * 10)
    ys = [0, 1]
    zs = [ys.append(a) for a, b in zip(ys, ys)]
    print(xs, ys, len(zs))
f()`,
  // break, continue and return inside the loop; targets that are not plain locals
  `def f():
    d = {}
    for d["i"], x in enumerate([5, 6, 7, 8]):
        if x == 6:
            continue
        if x == 8:
            break
    for i, x in zip(range(3), [7, 8, 9]):
        pass
    def g():
        for i, x in enumerate([4, 5, 6]):
            if x == 5:
                return i
    print(d, i, x, g())
f()`,
  // d.items(): order, mutation inside the loop (the items list is a snapshot), non-dicts
  `def f():
    d = {"a": 1, "b": 2}
    for k, v in d.items():
        d[k + k] = v
    e = {"x": 0}
    for k, v in e.items():
        e.pop(k)
    print(d, e, [k * v for k, v in d.items() if v > 1], {v: k for k, v in d.items()})
f()`,
  `def f():
    s = "abc"
    for k, v in s.items():
        pass
f()`,
  `def f():
    for k, v in d.items():
        pass
    d = {}
f()`,
  // arguments the fast form leaves to the built-in: ranges, strings, dicts, non-iterables
  `def f():
    print([(i, x) for i, x in enumerate(range(2))], [p for p in zip("ab", [1])])
f()`,
  `def f():
    print([(i, x) for i, x in enumerate({"k": 1, "j": 2})])
f()`,
  `def f():
    for i, x in enumerate(3):
        pass
f()`,
  `def f():
    return [a for a, b in zip([1], 2)]
f()`,
];

describe("for a, b in enumerate(...) / zip(...) without pair tuples", () => {
  it("behaves exactly like iterating the built-in's list", () => {
    for (const src of programs) expect(run(src), src).toBe(run(viaTuples(src)));
    expect(run(programs[0] as string)).toContain("[(0, 10), (1, 20), (2, 30)]");
    expect(run(programs[1] as string)).toBe("[1, 2, 3, 10, 20, 30] [0, 1, 0, 1] 2\n");
    expect(run(programs[8] as string)).toBe("error: enumerate: for parameter 1: got int, want iterable");
    expect(viaTuples(programs[0] as string)).toContain(" in ENUM(");
    expect(run(programs[3] as string)).toBe(
      '{"a": 1, "b": 2, "aa": 1, "bb": 2} {} ["bb", "bbbb"] {1: "aa", 2: "bb"}\n',
    );
    expect(run(programs[4] as string)).toBe(
      "error: string has no .items field or method (did you mean .elems?)",
    );
    expect(run(programs[5] as string)).toBe("error: local variable d referenced before assignment");
  });

  it("leaves a user-defined function of the same name alone", () => {
    const src =
      "enumerate = lambda xs: [(x, x) for x in xs]\ndef f():\n    print([a + b for a, b in enumerate([1, 2])])\nf()\n";
    expect(run(src)).toBe("[2, 4]\n");
  });

  it("counts one step per iteration, like the general loop", () => {
    const loop = "def f():\n    for i, x in enumerate([1] * 50):\n        pass\nf()\n";
    expect(run(loop, { maxSteps: 60 })).toBe("");
    expect(run(loop, { maxSteps: 40 })).toMatch(/too many steps/);
    expect(run(loop, { maxSteps: 40 })).toBe(run(viaTuples(loop), { maxSteps: 40 }));
  });
});
