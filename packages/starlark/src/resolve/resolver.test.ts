import { describe, expect, it } from "vitest";
import type { Stmt } from "../syntax/ast.js";
import { parseFile } from "../syntax/parser.js";
import { type Dialect, resolveDialect } from "./dialect.js";
import { resolveFile } from "./resolver.js";

function resolve(src: string, dialect: Dialect = {}) {
  const file = parseFile("t.star", src);
  const errors = resolveFile(
    file,
    { isPredeclared: (n) => n === "P", isUniversal: (n) => n === "len" || n === "set" },
    resolveDialect(dialect),
  );
  return { file, errors: errors.map((e) => `${e.line}:${e.col}: ${e.msg}`) };
}

describe("resolver", () => {
  it("classifies names as local, cell, free, global, predeclared and universal", () => {
    const { file, errors } = resolve(
      "g = 1\ndef f(a):\n  b = a\n  def h():\n    return b + g + P + len\n  return h\n",
    );
    expect(errors).toEqual([]);
    const def = file.stmts[1] as Extract<Stmt, { kind: "Def" }>;
    expect(def.fn.locals.map((b) => `${b.name}:${b.scope}`)).toEqual(["a:local", "b:cell", "h:local"]);
    const inner = def.fn.body[1] as Extract<Stmt, { kind: "Def" }>;
    expect(inner.fn.freeVars.map((b) => b.name)).toEqual(["b"]);
    const ret = inner.fn.body[0] as Extract<Stmt, { kind: "Return" }>;
    const scopes: string[] = [];
    const walk = (e: unknown): void => {
      const x = e as { kind: string; x?: unknown; y?: unknown; binding?: { scope: string } };
      if (x.kind === "Binary") {
        walk(x.x);
        walk(x.y);
      } else if (x.kind === "Ident") scopes.push(x.binding?.scope ?? "?");
    };
    walk(ret.result);
    expect(scopes).toEqual(["free", "global", "predeclared", "universal"]);
  });

  it("reports all static errors with go.starlark.net's texts, in its order", () => {
    const { errors } = resolve("x = 1\nx = 2\nprint(y)\nfor a in []: pass\nbreak\ndef f(a, a): pass\n");
    // Uses of global names are resolved at the end of the file, so "undefined" comes last.
    expect(errors).toEqual([
      "2:1: cannot reassign global x declared at t.star:1:1",
      "4:1: for loop not within a function",
      "5:1: break not in a loop",
      "6:10: duplicate parameter: a",
      "3:1: undefined: print",
      "3:7: undefined: y",
    ]);
    // A conditional's condition is resolved before its branches.
    expect(resolve("x = a if b else c\n").errors).toEqual([
      "1:10: undefined: b",
      "1:5: undefined: a",
      "1:17: undefined: c",
    ]);
  });

  it("limits calls to 255 positional and 255 keyword arguments, as go.starlark.net's compiler does", () => {
    const many = Array.from({ length: 256 }, (_, i) => String(i)).join(", ");
    expect(resolve(`len(${many})\n`).errors).toEqual(["1:1: 256 positional arguments in call, limit is 255"]);
    const kw = Array.from({ length: 256 }, (_, i) => `k${i}=1`).join(", ");
    expect(resolve(`len(${kw})\n`).errors).toEqual(["1:1: 256 keyword arguments in call, limit is 255"]);
  });

  it("suggests spellings for undefined names", () => {
    expect(resolve("hello = 1\nx = hollo\n").errors).toEqual(["2:5: undefined: hollo (did you mean hello?)"]);
  });

  it("applies the dialect options", () => {
    expect(resolve("def f():\n  while True: pass\n").errors[0]).toMatch(
      /^2:3: this Starlark dialect does not support while loops$/,
    );
    expect(resolve("def f():\n  while len: pass\n", { while: true }).errors).toEqual([]);
    expect(resolve("x = set()\n").errors).toEqual(["1:5: this Starlark dialect does not support sets"]);
    expect(resolve("x = set()\n", { set: true }).errors).toEqual([]);
    expect(resolve("x = 1\nx = 2\n", { globalReassign: true }).errors).toEqual([]);
    expect(resolve("if len:\n  pass\n", { topLevelControl: true }).errors).toEqual([]);
  });
});
