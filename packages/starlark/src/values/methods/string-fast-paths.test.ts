import { describe, expect, it } from "vitest";
import { callMethod, StarList, StarTuple, Thread, type Value } from "../index.js";

const t = new Thread();
const call = (recv: string, name: string, args: Value[]): Value => {
  const r = callMethod(t, recv, name, args, []);
  if (r === undefined) throw new Error(`no method ${name}`);
  return r;
};
const outcome = (fn: () => Value): unknown => {
  try {
    const v = fn();
    return v instanceof StarList ? v.elems : v;
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};

/** Every string over {a, b, :} up to length 5 (deterministic and exhaustive). */
function strings(): string[] {
  const out = [""];
  for (let len = 1; len <= 5; len++) {
    const next: string[] = [];
    for (const s of out) if (s.length === len - 1) for (const c of ["a", "b", ":"]) next.push(s + c);
    out.push(...next);
  }
  return out;
}

describe("string method fast paths agree with their general forms", () => {
  const all = strings();
  const needles = ["a", ":", "aa", "a:", "ab:", ""];

  it("split(sep) equals Go's strings.Split semantics (JS split for a non-empty separator)", () => {
    for (const s of all) {
      for (const sep of needles.filter((x) => x !== ""))
        expect(
          outcome(() => call(s, "split", [sep])),
          s,
        ).toEqual(s.split(sep));
    }
    expect(outcome(() => call("a:b", "split", [""]))).toBe("error: split: empty separator");
  });

  it("find/rfind/index/rindex with one argument equal the explicit whole-string range", () => {
    for (const s of all) {
      for (const sub of needles) {
        for (const name of ["find", "rfind", "index", "rindex"]) {
          expect(
            outcome(() => call(s, name, [sub])),
            `${s}.${name}(${sub})`,
          ).toEqual(outcome(() => call(s, name, [sub, 0, s.length])));
        }
      }
    }
  });

  it("startswith/endswith with one string equal the tuple form", () => {
    for (const s of all) {
      for (const p of needles) {
        for (const name of ["startswith", "endswith"]) {
          expect(call(s, name, [p]), `${s}.${name}(${p})`).toBe(call(s, name, [new StarTuple([p])]));
        }
      }
    }
  });
});
