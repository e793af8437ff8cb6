import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run.js";

function cli(...argv: string[]): { status: number; out: string; err: string } {
  let out = "";
  let err = "";
  const status = runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { status, out, err };
}

describe("starlark CLI", () => {
  it("runs -c programs, printing to stdout", () => {
    expect(cli("-c", 'print("hi", 1 + 2)')).toEqual({ status: 0, out: "hi 3\n", err: "" });
  });

  it("prints runtime errors with a backtrace to stderr and exits 1", () => {
    const r = cli("-c", "def f():\n  return {}['k']\nf()");
    expect(r.status).toBe(1);
    expect(r.err).toBe(
      'Traceback (most recent call last):\n  cmdline:3:2: in <toplevel>\n  cmdline:2:12: in f\nError: key "k" not in dict\n',
    );
  });

  it("prints static errors as file:line:col: msg", () => {
    expect(cli("-c", "x = y")).toEqual({ status: 1, out: "", err: "cmdline:1:5: undefined: y\n" });
  });

  it("honours the dialect flags", () => {
    const fib = "def fib(n):\n  if n < 2: return n\n  return fib(n-1) + fib(n-2)\nprint(fib(10))";
    expect(cli("-c", fib).err).toMatch(/called recursively/);
    expect(cli("-recursion", "-c", fib).out).toBe("55\n");
    expect(cli("-c", "print(set([1]))").err).toBe(
      "cmdline:1:7: this Starlark dialect does not support sets\n",
    );
    expect(cli("-set", "-c", "print(set([1]))").out).toBe("set([1])\n");
    expect(cli("-globalreassign", "-c", "x = 1\nx = 2\nfor i in [x]: print(i)").out).toBe("2\n");
    expect(cli("-while", "-c", "def f():\n  i = 0\n  while i < 3: i += 1\n  return i\nprint(f())").out).toBe(
      "3\n",
    );
  });

  it("runs files and loads modules relative to them", () => {
    const dir = mkdtempSync(join(tmpdir(), "starlark-cli-"));
    writeFileSync(join(dir, "lib.star"), "def double(x):\n  return 2 * x\n");
    writeFileSync(join(dir, "main.star"), 'load("lib.star", "double")\nprint(double(21))\n');
    expect(cli(join(dir, "main.star"))).toEqual({ status: 0, out: "42\n", err: "" });
  });

  it("enforces -steps", () => {
    const r = cli("-steps", "1000", "-c", "def f():\n  for i in range(1000000000): pass\nf()");
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/too many steps/);
  });

  it("rejects bad usage", () => {
    expect(cli().status).toBe(2);
    expect(cli("-bogus", "x.star").err).toMatch(/unknown flag -bogus/);
  });
});
