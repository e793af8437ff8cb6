import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { binary, repr, StarlarkError, Thread, unary, type Value } from "../values/index.js";

const operands = [
  "1",
  "-3",
  "0",
  "2.5",
  "-0.0",
  "0.0",
  "float('inf')",
  "float('nan')",
  "1e308",
  "True",
  '"s"',
  "1180591620717411303424",
];

function evaluate(src: string): Value | string {
  try {
    return compile(`${src}\n`, { filename: "t.star", predeclared: [] })
      .init(new Thread({}), {})
      .get("r") as Value;
  } catch (e) {
    if (e instanceof StarlarkError) return `error: ${e.message}`;
    throw e;
  }
}

function show(v: Value | string): string {
  return typeof v === "string" && v.startsWith("error: ") ? v : repr(v as Value);
}

describe("inline float arithmetic in the evaluator", () => {
  it("matches the value layer for + - * / and their augmented forms", () => {
    for (const op of ["+", "-", "*", "/"] as const) {
      for (const x of operands) {
        for (const y of operands) {
          const a = evaluate(`r = ${x}`) as Value;
          const b = evaluate(`r = ${y}`) as Value;
          let want: string;
          try {
            want = repr(binary(op, a, b));
          } catch (e) {
            want = `error: ${(e as Error).message}`;
          }
          const program = `def f(a, b):\n    return a ${op} b\nr = f(${x}, ${y})`;
          expect(show(evaluate(program)), `${x} ${op} ${y}`).toBe(want);
          const augmented = `def f(a, b):\n    a ${op}= b\n    return a\nr = f(${x}, ${y})`;
          expect(show(evaluate(augmented)), `${x} ${op}= ${y}`).toBe(want);
        }
      }
    }
  });

  it("matches the value layer for unary minus", () => {
    for (const x of operands) {
      const a = evaluate(`r = ${x}`) as Value;
      let want: string;
      try {
        want = repr(unary("-", a));
      } catch (e) {
        want = `error: ${(e as Error).message}`;
      }
      expect(show(evaluate(`def f(a):\n    return -a\nr = f(${x})`)), `-${x}`).toBe(want);
    }
  });
});
