import { describe, expect, it } from "vitest";
import {
  Builtin,
  call,
  compile,
  defineHostType,
  fromStarlark,
  None,
  repr,
  type EvalError as StarEvalError,
  StarList,
  StarlarkSyntaxErrors,
  Thread,
  toStarlark,
  unpackArgs,
  wantString,
} from "../index.js";

describe("host API", () => {
  it("reports structured syntax errors with file:line:col", () => {
    try {
      compile("x = 1\ny = undefined_name\nz = 2 +\n", { filename: "s.star" });
      throw new Error("compiled");
    } catch (e) {
      expect(e).toBeInstanceOf(StarlarkSyntaxErrors);
      expect((e as StarlarkSyntaxErrors).errors).toEqual([
        { filename: "s.star", line: 3, col: 8, msg: "got newline, want primary expression" },
      ]);
    }
    try {
      compile("a = b\nc = d\n", { filename: "r.star" });
      throw new Error("compiled");
    } catch (e) {
      expect((e as StarlarkSyntaxErrors).errors.map((x) => `${x.line}:${x.col}: ${x.msg}`)).toEqual([
        "1:5: undefined: b",
        "2:5: undefined: d",
      ]);
    }
  });

  it("compiles once and runs many times with fresh predeclared values and a print hook", () => {
    const program = compile(
      'print("hello", who)\ndef greet(name, punct="!"):\n  return "hi " + name + punct\n',
      {
        filename: "p.star",
        predeclared: ["who"],
      },
    );
    for (const who of ["Ω", "b"]) {
      const lines: string[] = [];
      const thread = new Thread({ print: (_t, msg) => lines.push(msg) });
      const module = program.init(thread, { who: toStarlark(who) });
      expect(lines).toEqual([`hello ${who}`]);
      const greet = module.get("greet");
      if (greet === undefined) throw new Error("greet missing");
      expect(fromStarlark(call(thread, greet, [toStarlark(who)], { punct: toStarlark("?") }))).toBe(
        `hi ${who}?`,
      );
    }
  });

  it("lets hosts define builtins with go-style argument unpacking and its error texts", () => {
    const f = new Builtin("f", (_t, args, kwargs) => {
      const [x, y] = unpackArgs("f", args, kwargs, ["x", "y?"]);
      return wantString("f", "x", x ?? None) + (y === undefined ? "" : "+y");
    });
    const program = compile(
      "def run(k):\n  if k == 1: return f()\n  if k == 2: return f(1)\n  return f('a', z=1)\n",
      {
        filename: "b.star",
        predeclared: ["f"],
      },
    );
    const thread = new Thread();
    const run = program.init(thread, { f }).get("run");
    if (run === undefined) throw new Error("run missing");
    const message = (k: number) => {
      try {
        call(thread, run, [k]);
      } catch (e) {
        return (e as StarEvalError).message;
      }
      return "no error";
    };
    expect(message(1)).toBe("f: missing argument for x");
    expect(message(2)).toBe("f: for parameter x: got int, want string");
    expect(message(3)).toBe('f: unexpected keyword argument "z"');
  });

  it("converts plain JS data to Starlark and back", () => {
    const data = { name: "Ω", n: 3, big: 2n ** 70n, f: 1.5, list: [1, null, true], nested: { a: [] } };
    const v = toStarlark(data);
    expect(repr(v)).toBe(
      '{"name": "Ω", "n": 3, "big": 1180591620717411303424, "f": 1.5, "list": [1, None, True], "nested": {"a": []}}',
    );
    expect(fromStarlark(v)).toEqual(data);
    expect(toStarlark(1.0)).toBe(1);
    const loop: unknown[] = [];
    loop.push(loop);
    expect(() => toStarlark(loop)).toThrow("cannot convert cyclic JS data to a Starlark value");
    expect(Object.is(toStarlark(-0), 0)).toBe(true);
    const cyclic = compile("x = []\nx.append(x)\n", { filename: "c.star" }).init(new Thread(), {}).get("x");
    expect(() => fromStarlark(cyclic ?? None)).toThrow("cannot convert a list that contains itself to JS");
    const shared = compile("a = [1]\nx = [a, a]\n", { filename: "d.star" }).init(new Thread(), {}).get("x");
    expect(fromStarlark(shared ?? None)).toEqual([[1], [1]]);
  });

  it("exposes read-only host object types with attributes and optional indexing", () => {
    const member = defineHostType<{ name: string; cpu: number }>({
      typeName: "member",
      attrNames: () => ["cpu", "name"],
      getAttr: (m, name) => (name === "name" ? toStarlark(m.name) : name === "cpu" ? m.cpu : undefined),
      getIndex: (m, key) => (key === "cpu" ? m.cpu : undefined),
    });
    const program = compile(
      'print(type(m), m.name, m.cpu, m["cpu"], dir(m), hasattr(m, "x"))\ndef bad(): m.nam\ndef set(): m.cpu = 1\n',
      { filename: "h.star", predeclared: ["m"] },
    );
    const lines: string[] = [];
    const thread = new Thread({ print: (_t, msg) => lines.push(msg) });
    const module = program.init(thread, { m: member({ name: "n1", cpu: 4 }) });
    expect(lines).toEqual(['member n1 4 4 ["cpu", "name"] False']);
    expect(() => call(thread, module.get("bad") ?? None, [])).toThrow(
      /member has no .nam field or method \(did you mean .name\?\)/,
    );
    expect(() => call(thread, module.get("set") ?? None, [])).toThrow(/member/);
  });

  it("keeps list values from different runs independent", () => {
    const program = compile("x = []\nx.append(1)\n", { filename: "i.star" });
    const a = program.init(new Thread(), {}).get("x");
    const b = program.init(new Thread(), {}).get("x");
    expect(a).toBeInstanceOf(StarList);
    expect(a).not.toBe(b);
  });

  it("resolves load() through the init option, with go.starlark.net's messages", () => {
    const program = compile('load("lib.star", "double", d2 = "double")\nx = double(2) + d2(3)\n', {
      filename: "l.star",
    });
    expect(() => program.init(new Thread(), {})).toThrow("load not implemented by this application");
    const lib = new Map([["double", new Builtin("double", (_t, args) => 2 * (args[0] as number))]]);
    const module = program.init(
      new Thread(),
      {},
      { load: (_t, name) => (name === "lib.star" ? lib : new Map()) },
    );
    expect(module.get("x")).toBe(10);
    expect(module.get("double")).toBeUndefined(); // load bindings are file-local, not exported
    const missing = compile('load("lib.star", "doubel")\n', { filename: "m.star" });
    expect(() => missing.init(new Thread(), {}, { load: () => lib })).toThrow(
      "load: name doubel not found in module lib.star (did you mean double?)",
    );
  });

  it("counts steps across init and later calls on the same thread", () => {
    const program = compile("def loop(n):\n  for i in range(n):\n    pass\nloop(100)\n", {
      filename: "s.star",
    });
    const thread = new Thread({ limits: { maxSteps: 250 } });
    const module = program.init(thread, {});
    const stepsAfterInit = thread.steps;
    expect(stepsAfterInit).toBeGreaterThanOrEqual(100);
    call(thread, module.get("loop") ?? None, [100]);
    expect(thread.steps).toBeGreaterThan(stepsAfterInit + 99);
    expect(() => call(thread, module.get("loop") ?? None, [100])).toThrow(/too many steps/);
  });
});
