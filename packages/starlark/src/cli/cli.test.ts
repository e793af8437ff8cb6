import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCli } from "./run.js";

/** The package's bin as `pnpm build` writes it (tests run after the build). */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/cli/starlark.cjs");

/** Runs the built bin as its shebang line does (`node <flags> starlark.cjs ...`). */
function bin(...argv: string[]): { status: number | null; out: string; err: string } {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`pnpm build\` first`);
  const shebang = readFileSync(BIN, "utf8").split("\n", 1)[0] ?? "";
  const flags = shebang
    .replace(/^#!\/usr\/bin\/env -S node/, "")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const r = spawnSync(process.execPath, [...flags, BIN, ...argv], { encoding: "latin1" });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** A program recursing n calls deep. */
const recurse = (n: number) => `def f(n):\n  return 0 if n == 0 else 1 + f(n - 1)\nprint(f(${n}))`;

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

  it("follows the newest go.starlark.net's dialect flags", () => {
    const fib = "def fib(n):\n  if n < 2: return n\n  return fib(n-1) + fib(n-2)\nprint(fib(10))";
    expect(cli("-c", fib).err).toMatch(/called recursively/);
    expect(cli("-recursion", "-c", fib).out).toBe("55\n");
    // set is standard now; -set is accepted and does nothing.
    expect(cli("-c", "print(set([1]))").out).toBe("set([1])\n");
    expect(cli("-set", "-c", "print(set([1]))").out).toBe("set([1])\n");
    // -recursion no longer allows while; -globalreassign allows while and top-level for/if.
    const loop = "def f():\n  i = 0\n  while i < 3: i += 1\n  return i\nprint(f())";
    expect(cli("-recursion", "-c", loop)).toEqual({
      status: 1,
      out: "",
      err: "cmdline:3:3: this Starlark dialect does not support while loops\n",
    });
    expect(cli("-while", "-c", loop).out).toBe("3\n");
    expect(cli("-globalreassign", "-c", loop).out).toBe("3\n");
    expect(cli("-globalreassign", "-c", "x = 1\nx = 2\nfor i in [x]: print(i)").out).toBe("2\n");
  });

  it("keeps the 2021 command's behaviour behind -legacy (and -noset)", () => {
    const loop = "def f():\n  i = 0\n  while i < 3: i += 1\n  return i\nprint(f())";
    expect(cli("-legacy", "-recursion", "-c", loop).out).toBe("3\n");
    expect(cli("-legacy", "-c", "print(set([1]))").err).toBe(
      "cmdline:1:7: this Starlark dialect does not support sets\n",
    );
    expect(cli("-legacy", "-set", "-c", "print(set([1]))").out).toBe("set([1])\n");
    expect(cli("-noset", "-c", "print(set([1]))").status).toBe(1);
  });

  it("offers json, math and time like upstream's command", () => {
    expect(cli("-c", 'print(json.encode({"a": math.floor(2.5)}), time.parse_duration("90m"))').out).toBe(
      '{"a":2} 1h30m0s\n',
    );
  });

  it("writes print()'s bytes as they are: a cut UTF-8 sequence is not replaced", () => {
    expect(cli("-c", 'print("aΩb"[:2])').out).toBe("a\xce\n");
  });

  it("reports the first static error only, as upstream prints the error list", () => {
    expect(cli("-c", "x = y\nz = w").err).toBe("cmdline:1:5: undefined: y\n");
  });

  it("fails a program over -memory with the budget error", () => {
    const r = cli("-memory", "1000000", "-c", "def f():\n  for i in range(100):\n    x = 'ab' * 100000\nf()");
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/Error: starlark: memory budget of 1000000 bytes exceeded\n$/);
  });

  it("runs files and loads modules relative to them", () => {
    const dir = mkdtempSync(join(tmpdir(), "starlark-cli-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
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

  it("ships as one file that runs like the module (the bin)", () => {
    expect(bin("-c", 'print("hi", json.encode([1]), "\xe9"[:1])')).toEqual({
      status: 0,
      out: "hi [1] \xc3\n",
      err: "",
    });
    const r = bin("-c", "def f():\n  return len(1)\nf()");
    expect(r.status).toBe(1);
    expect(r.err).toBe(
      "Traceback (most recent call last):\n  cmdline:3:2: in <toplevel>\n  cmdline:2:13: in f\nError in len: len: value of type int has no len\n",
    );
  });

  it("recurses (with -recursion) 10,000 and 99,990 calls deep, and stops at upstream's 100,000 frames", () => {
    expect(bin("-recursion", "-c", recurse(10_000))).toEqual({ status: 0, out: "10000\n", err: "" });
    expect(bin("-recursion", "-c", recurse(99_990))).toEqual({ status: 0, out: "99990\n", err: "" });
    const r = bin("-recursion", "-c", recurse(200_000));
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/\nError: Starlark stack overflow\n$/);
    // Three whole processes, each up to 200,000 frames deep: a few seconds on an idle machine,
    // but it took 39 s while the machine was busy with other test runs; this checks depth, not speed.
  }, 180_000);
});
