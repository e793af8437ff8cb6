import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { binary, StarlarkError, Thread } from "../values/index.js";
import { parseSimpleFormat } from "./format-literal.js";

/** Runs `print(<expr>)` and returns the output, or the error's message. */
function evalPrint(expr: string, maxStringLength?: number): string {
  let out = "";
  const program = compile(`x = [1]\ny = (True, 2.5, None)\nprint(${expr})\n`, {
    filename: "t.star",
    predeclared: [],
  });
  const thread = new Thread({
    print: (_t, m) => (out += m),
    limits: maxStringLength === undefined ? {} : { maxStringLength },
  });
  try {
    program.init(thread, {});
  } catch (e) {
    if (e instanceof StarlarkError) return `error: ${e.message}`;
    throw e;
  }
  return out;
}

describe("format literals parsed at compile time", () => {
  it("accepts only plain text with %s, %d and %i", () => {
    expect(parseSimpleFormat("key%d")).toEqual({ texts: ["key", ""], isString: [false] });
    expect(parseSimpleFormat("%s-%i:")).toEqual({ texts: ["", "-", ":"], isString: [true, false] });
    expect(parseSimpleFormat("plain")).toEqual({ texts: ["plain"], isString: [] });
    for (const f of ["100%%", "%r", "%(a)s", "%x", "%", "a%5d", "%.2f"])
      expect(parseSimpleFormat(f)).toBeUndefined();
  });

  it("gives exactly the value layer's results and errors", () => {
    const cases: [string, string][] = [
      ['"key%d" % 42', "key42"],
      ['"k%s" % "v"', "kv"],
      ['"%s|%s" % (True, False)', "True|False"],
      ['"%s" % (7,)', "7"],
      ['"%d" % -12', "-12"],
      ['"%s/%d/%i" % ("a", 1, 2)', "a/1/2"],
      ['"%d" % 123456789012345678901234567890', "123456789012345678901234567890"],
      ['"%s" % 2.5', "2.5"],
      ['"%d" % 2.5', "2"],
      ['"%s" % x', "[1]"],
      ['"%s" % [x]', "[[1]]"],
      ['"%s %s %s" % y', "True 2.5 None"],
      ['"none" % ()', "none"],
      ['"%d" % "a"', "error: %d format requires integer: cannot convert string to int"],
      ['"%d" % None', "error: %d format requires integer: cannot convert NoneType to int"],
      ['"%(a)s %s" % {"a": 1}', "error: not enough arguments for format string"],
      ['"%(a)s" % {}', "error: key not found: a"],
      ['"%d" % True', "error: %d format requires integer: cannot convert bool to int"],
      ['"%s %s" % (1,)', "error: not enough arguments for format string"],
      ['"%s" % (1, 2)', "error: too many arguments for format string"],
      ['"none" % 1', "error: too many arguments for format string"],
      ['"%s" % {"a": 1}', '{"a": 1}'],
    ];
    for (const [expr, want] of cases) expect(evalPrint(expr), expr).toBe(want);
  });

  it("agrees with the value layer's % on generated arguments", () => {
    const formats = ["n%d", "%s:%s", "%s-%d-%i!"];
    const values = ['"ab"', "0", "-3", "True", "None", "1.5", '("t",)', "[]"];
    for (const f of formats) {
      for (const a of values) {
        for (const b of values) {
          const arity = (parseSimpleFormat(f)?.isString.length ?? 0) as number;
          const arg = arity === 1 ? a : `(${a}, ${b}${arity === 3 ? `, ${a}` : ""})`;
          let want: string;
          try {
            const argValue = compile(`v = ${arg}\n`, { filename: "a.star", predeclared: [] })
              .init(new Thread({}), {})
              .get("v");
            want = String(binary("%", f, argValue as never));
          } catch (e) {
            want = `error: ${(e as Error).message}`;
          }
          expect(evalPrint(`"${f}" % ${arg}`), `"${f}" % ${arg}`).toBe(want);
        }
      }
    }
  });

  it("evaluates a tuple display's elements once each, in order, on both paths", () => {
    let out = "";
    const src = [
      "log = []",
      "def f(v):",
      "  log.append(v)",
      "  return v",
      'a = "%s-%d" % (f("x"), f(1))',
      'b = "%s-%s-%d" % (f([2]), f(None), f(3))',
      "print(a, b, log)",
    ].join("\n");
    compile(src, { filename: "t.star", predeclared: [] }).init(
      new Thread({ print: (_t, m) => (out += m) }),
      {},
    );
    expect(out).toBe('x-1 [2]-None-3 ["x", 1, [2], None, 3]');
  });

  it("keeps the string length limit", () => {
    const e = evalPrint('"%s%s" % ("x" * 40, "y" * 40)', 64);
    expect(e).toMatch(/^error: string too large/);
    expect(evalPrint('"k%d" % 1', 64)).toBe("k1");
  });
});
