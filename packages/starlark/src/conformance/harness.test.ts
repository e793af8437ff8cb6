import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { splitChunks } from "./chunks.js";
import { decodeGoStringLiteral, goRegExp } from "./go-regexp.js";
import { ConformanceRunner, findConformanceDir } from "./runner.js";

describe("conformance harness", () => {
  it("splits chunks, pads line numbers and reads ### expectations and options", () => {
    const chunks = splitChunks('x = 1\n---\n# option:set\ny = 1 // 0 ### "division by zero"\n---\nz = 3');
    expect(chunks.map((c) => c.firstLine)).toEqual([1, 3, 6]);
    expect(chunks[1]?.source.split("\n")[3]).toBe('y = 1 // 0 ### "division by zero"');
    expect(chunks[1]?.expectations.map((x) => [x.line, x.pattern])).toEqual([[4, "division by zero"]]);
    expect(chunks[1]?.options.set).toBe(true);
    expect(chunks[2]?.options.set).toBe(false);
  });

  it("decodes Go string literals and translates RE2 patterns", () => {
    expect(decodeGoStringLiteral(String.raw`"a\\(b\"c"`)).toBe('a\\(b"c');
    expect(decodeGoStringLiteral("`got '\\*', want primary`")).toBe("got '\\*', want primary");
    expect(goRegExp("(?i)HELLO").test("say hello")).toBe(true);
    expect(goRegExp("end\\z").test("the end")).toBe(true);
  });

  it("fails chunks whose assertions fail or whose errors do not match", () => {
    // A miniature conformance folder, so the harness is tested against known outcomes.
    const root = mkdtempSync(join(tmpdir(), "starlark-conf-"));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const real = findConformanceDir(process.cwd());
    mkdirSync(join(root, "starlarktest"));
    const assertStar = real
      ? readFileSync(join(real, "starlarktest", "assert.star"), "utf8")
      : 'def _eq(x, y):\n    if x != y:\n        error("%r != %r" % (x, y))\nassert = module("assert", eq = _eq)\n';
    writeFileSync(join(root, "starlarktest", "assert.star"), assertStar);
    writeFileSync(
      join(root, "t.star"),
      [
        'load("assert.star", "assert")\nassert.eq(1, 1)',
        'load("assert.star", "assert")\nassert.eq(1, 2)',
        'x = 1 // 0 ### "division by zero"',
        'x = 1 // 0 ### "no such message"',
        'x = 1 ### "never happens"',
      ].join("\n---\n"),
    );
    const results = new ConformanceRunner(root).runEvalFile("t.star");
    expect(results.map((r) => r.status)).toEqual(["pass", "fail", "pass", "fail", "fail"]);
    expect(results[1]?.problems[0]).toMatch(/assertion failed: 1 != 2/);
    expect(results[3]?.problems[0]).toMatch(/does not match pattern/);
    expect(results[4]?.problems[0]).toMatch(/expected error matching "never happens"/);
  });
});
