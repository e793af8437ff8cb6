/**
 * The thread's allocation budget (Limits.maxAllocBytes, issue #17 item 1): bytes are counted as
 * the program allocates them, so a program that builds and drops big values fails as soon as the
 * total passes the budget, with a "memory" LimitError the host can catch, carrying the Starlark
 * backtrace. Each bomb below would allocate gigabytes without the budget; the assertions on
 * `thread.allocated` show it stopped right after crossing the budget (speed is the bench's
 * business, not these tests').
 */
import { describe, expect, it } from "vitest";
import { compile } from "../host/compile.js";
import { jsonModule } from "../json/index.js";
import { ALLOC, LimitError, StarlarkError, Thread } from "./index.js";

const BUDGET = 64 << 20;
const MESSAGE = `starlark: memory budget of ${BUDGET} bytes exceeded`;

function run(src: string, maxAllocBytes = BUDGET): { thread: Thread; error: unknown; out: string } {
  let out = "";
  const thread = new Thread({ print: (_t, m) => (out += `${m}\n`), limits: { maxAllocBytes } });
  try {
    compile(src, { filename: "bomb.star", predeclared: ["json"], dialect: { set: true } }).init(thread, {
      json: jsonModule,
    });
  } catch (error) {
    return { thread, error, out };
  }
  return { thread, error: undefined, out };
}

/** Runs a bomb: it must fail with the budget error, having allocated at most `overshoot` past it. */
function expectBudgetError(src: string, overshoot: number, budget = BUDGET): LimitError {
  const { thread, error } = run(src, budget);
  expect(error).toBeInstanceOf(LimitError);
  const e = error as LimitError;
  expect(e.kind).toBe("memory");
  expect(e.message).toBe(`starlark: memory budget of ${budget} bytes exceeded`);
  expect(thread.allocated).toBeGreaterThan(budget);
  expect(thread.allocated).toBeLessThanOrEqual(budget + overshoot);
  return e;
}

/** A smaller budget for the per-operation checks (the interpreter's speed is not under test). */
const SMALL = 4 << 20;

const MB = 1 << 20;

describe("allocation budget", () => {
  it("stops keep.append([0] * 1000000) in a loop", () => {
    const e = expectBudgetError(
      "keep = []\ndef f():\n    for i in range(100000):\n        keep.append([0] * 1000000)\nf()\n",
      8 * MB + 64,
    );
    // A LimitError is a StarlarkError with the program's backtrace.
    expect(e).toBeInstanceOf(StarlarkError);
    expect(e.backtrace()).toBe(
      [
        "Traceback (most recent call last):",
        "  bomb.star:5:2: in <toplevel>",
        "  bomb.star:4:25: in f",
        `Error: ${MESSAGE}`,
      ].join("\n"),
    );
  });

  it("stops 1 MB strings built with .replace in a loop, though each is dropped at once", () => {
    expectBudgetError(
      "def f():\n    s = 'x' * 1000000\n    for i in range(100000):\n        t = s.replace('x', 'y')\nf()\n",
      MB + 64,
    );
    expectBudgetError(
      "def f():\n    s = 'ab' * 500000\n    for i in range(100000):\n        t = s.replace('ab', 'abc')\nf()\n",
      2 * MB,
      SMALL,
    );
  });

  it("counts string building: +, *, join, %, format, slicing", () => {
    const loops: string[] = [
      "s = ''\n    for i in range(1000000): s = s + 'abcdefgh'",
      "for i in range(100000): t = 'x' * 100000",
      "parts = ['x' * 1000] * 1000\n    for i in range(100000): t = ','.join(parts)",
      "s = 'x' * 100000\n    for i in range(100000): t = '%s%s' % (s, s)",
      "s = 'x' * 100000\n    for i in range(100000): t = '{}{}'.format(s, s)",
      "s = 'x' * 1000000\n    for i in range(100000): t = s[1:]",
      "b = b'x' * 1000000\n    for i in range(100000): t = b + b",
    ];
    for (const body of loops) expectBudgetError(`def f():\n    ${body}\nf()\n`, 3 * MB, SMALL);
  });

  it("counts collections: growth, comprehensions, range materialisation, dict and set inserts", () => {
    const loops: string[] = [
      "d = {}\n    for i in range(100000000): d[i] = i",
      "s = set()\n    for i in range(100000000): s.add(i)",
      "for i in range(1000): x = [j for j in range(100000)]",
      "for i in range(1000): x = {j: j for j in range(100000)}",
      "for i in range(1000): x = list(range(1000000))",
      "for i in range(1000): x = tuple(range(1000000))",
      "x = []\n    for i in range(100000000): x.append(i)",
      "x = [1] * 100000\n    for i in range(1000): y = x + x",
      "x = list(range(100000))\n    for i in range(1000): y = sorted(x)",
    ];
    for (const body of loops) expectBudgetError(`def f():\n    ${body}\nf()\n`, 17 * MB, SMALL);
  });

  it("counts json.encode and json.decode", () => {
    expectBudgetError(
      "def f():\n    x = list(range(100000))\n    for i in range(1000): s = json.encode(x)\nf()\n",
      2 * MB,
      SMALL,
    );
    expectBudgetError(
      "def f():\n    s = json.encode(list(range(10000)))\n    for i in range(1000): x = json.decode(s)\nf()\n",
      2 * MB,
      SMALL,
    );
  });

  it("lets a program within its budget finish, and charges by the documented cost model", () => {
    const { thread, error, out } = run(
      "x = [i for i in range(1000)]\ns = 'ab' * 50\nprint(len(x), len(s))\n",
    );
    expect(error).toBeUndefined();
    expect(out).toBe("1000 100\n");
    // At least the list's 1000 slots and the 100-byte string.
    expect(thread.allocated).toBeGreaterThanOrEqual(ALLOC.header + 1000 * ALLOC.slot + ALLOC.header + 100);
    expect(thread.allocated).toBeLessThan(32 * 1024);
  });

  it("is off by default", () => {
    const thread = new Thread();
    expect(thread.limits.maxAllocBytes).toBe(Number.POSITIVE_INFINITY);
  });

  it("reports a small budget in its message", () => {
    const { error } = run("x = 'a' * 2000\n", 1000);
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).message).toBe("starlark: memory budget of 1000 bytes exceeded");
  });
});
