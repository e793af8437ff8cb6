import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { StarlarkError, Thread } from "../values/index.js";
import { StarlarkSyntaxErrors } from "./position.js";

/** Source fragments that make random programs more likely to reach deep parser and evaluator paths. */
const FRAGMENTS = [
  "def f(a, b=1, *c, **d):",
  "lambda x: x",
  "for x in [1, 2]:",
  "if x:",
  "else:",
  "return",
  "load('m', 'x')",
  "[x for x in range(3) if x]",
  "{1: 2, 'a': [3]}",
  "'str\\n'",
  '"""tri"""',
  "r'\\d'",
  "0x1f",
  "1.5e3",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ":",
  ",",
  "\n",
  "\n  ",
  "\n\t",
  "x",
  "y",
  "=",
  "+=",
  "*",
  "**",
  "//",
  "%",
  "not",
  "in",
  "and",
  "or",
  ".",
  "print(x)",
  "len('ab')",
  "1 // 0",
  "#",
  "\\",
  "'",
  '"',
];

function checkOnlyStarlarkErrors(src: string): void {
  try {
    const program = compile(src, { filename: "fuzz.star", dialect: { set: true } });
    program.init(new Thread({ print: () => {}, limits: { maxSteps: 10_000 } }), {});
  } catch (e) {
    if (e instanceof StarlarkSyntaxErrors || e instanceof StarlarkError) return;
    throw e;
  }
}

describe("random source text", () => {
  it("never throws anything but a Starlark error (arbitrary strings)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: "binary" }), (src) => {
        expect(() => checkOnlyStarlarkErrors(src)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it("never throws anything but a Starlark error (token soup)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }), (parts) => {
        expect(() => checkOnlyStarlarkErrors(parts.join(" "))).not.toThrow();
      }),
      { numRuns: 1500 },
    );
  });
});
