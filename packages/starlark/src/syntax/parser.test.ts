import { describe, expect, it } from "vitest";
import type { Stmt } from "./ast.js";
import { MAX_NESTING, parseFile } from "./parser.js";
import { StarlarkSyntaxErrors } from "./position.js";

function parseError(src: string): string {
  try {
    parseFile("t.star", src);
  } catch (e) {
    if (e instanceof StarlarkSyntaxErrors) {
      const [first] = e.errors;
      return `${first?.line}:${first?.col}: ${first?.msg}`;
    }
    throw e;
  }
  throw new Error("parsed without error");
}

describe("parser", () => {
  it("builds statements with positions", () => {
    const [def, assign] = parseFile("t.star", "def f(a, b=1, *args, c, **kw):\n  return a\nx, y = 1, 2\n")
      .stmts as [Stmt, Stmt];
    expect(def.kind).toBe("Def");
    if (def.kind !== "Def") return;
    expect(def.fn.params.map((p) => p.kind)).toEqual([
      "required",
      "optional",
      "star",
      "required",
      "starstar",
    ]);
    expect(def.pos).toEqual({ line: 1, col: 1 });
    expect(assign.kind).toBe("Assign");
    if (assign.kind !== "Assign") return;
    expect(assign.lhs.kind).toBe("Tuple");
    expect(assign.opPos).toEqual({ line: 3, col: 6 });
  });

  it("respects operator precedence and the comprehension grammar", () => {
    const [s] = parseFile("t.star", "x = 1 + 2 * 3 if a else [y for y in z if y]\n").stmts;
    if (s?.kind !== "Assign") throw new Error("want assignment");
    expect(s.rhs.kind).toBe("Cond");
    if (s.rhs.kind !== "Cond") return;
    const then = s.rhs.ifTrue;
    expect(then.kind === "Binary" && then.op === "+" && then.y.kind === "Binary" && then.y.op === "*").toBe(
      true,
    );
    expect(s.rhs.ifFalse.kind).toBe("Comprehension");
  });

  it("reports go.starlark.net's parse errors", () => {
    // The newest go.starlark.net reports it at the newline itself, the end of line 1.
    expect(parseError("x = 1 +\n2")).toMatch(/^1:8: got newline, want primary expression$/);
    expect(parseError("from = 1")).toMatch(/^1:1: got from, want primary expression$/);
    expect(parseError("def f(is): pass")).toMatch(/^1:9: not an identifier$/);
    expect(parseError("_ = 0 == 1 == 2")).toMatch(/== does not associate with ==/);
    expect(parseError("a, b, = 1, 2")).toMatch(/unparenthesized tuple with trailing comma/);
    expect(parseError("f(1+2 = 3)")).toMatch(/keyword argument must have form name=expr/);
    expect(parseError("_ = a if b")).toMatch(/conditional expression without else clause/);
    expect(parseError('load("", 1)')).toMatch(
      /load operand must be "name" or localname="name" \(got int literal\)/,
    );
    expect(parseError("def pass(): pass")).toMatch(/not an identifier/);
    expect(parseError("print 1 2")).toMatch(/got int literal, want newline/);
  });

  it("rejects excessive nesting with a parse error instead of overflowing the stack", () => {
    const deep = `x = ${"[".repeat(1000)}${"]".repeat(1000)}\n`;
    expect(parseError(deep)).toMatch(/nesting too deep/);
    const unary = `x = ${"-".repeat(100_000)}1\n`;
    expect(parseError(unary)).toMatch(/nesting too deep/);
    const ok = `x = ${"(".repeat(MAX_NESTING - 1)}1${")".repeat(MAX_NESTING - 1)}\n`;
    expect(() => parseFile("t.star", ok)).not.toThrow();
  });
});
