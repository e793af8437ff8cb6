import { describe, expect, it } from "vitest";
import { StarTuple } from "../values/list.js";
import { compareForSort } from "../values/ops.js";
import { None, StarFloat, type Value } from "../values/value.js";
import { stableSort } from "./sort.js";

/** Reference: a stable sort of indices by compareForSort (what sorted() did before specializing). */
function reference(values: Value[], keys: Value[] | undefined, reverse: boolean): Value[] {
  const k = keys ?? values;
  const order = values.map((_, i) => i);
  order.sort((a, b) => {
    const c = compareForSort(k[a] as Value, k[b] as Value);
    return reverse ? -c : c;
  });
  return order.map((i) => values[i] as Value);
}

/** A small deterministic generator (the same cases every run). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe("stableSort specializations", () => {
  const rnd = lcg(7);
  const int = () => Math.floor(rnd() * 21) - 10;
  const str = () => ["", "a", "b", "ab", "\xce\xa9", "B", "aa"][Math.floor(rnd() * 7)] as string;
  const float = () =>
    new StarFloat(
      [0.5, -0, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -2][Math.floor(rnd() * 7)] as number,
    );
  // ints and floats compare with each other; other mixes are errors (tested below)
  const elem = (): Value => (rnd() < 0.5 ? int() : float());
  const tuple = (mixed: boolean) => () => {
    const n = Math.floor(rnd() * 3) + (mixed ? 0 : 1);
    return new StarTuple(mixed ? Array.from({ length: n }, elem) : [float(), str(), int()].slice(0, n));
  };
  const kinds: [string, () => Value][] = [
    ["ints", int],
    ["big ints", () => int() * 2 ** 40],
    ["strings", str],
    ["tuples of float, string, int", tuple(false)],
    ["tuples mixing ints and floats", tuple(true)],
    ["tuples of int, string", () => new StarTuple([int(), str()])],
    ["tuples of -float, string (scoring keys)", () => new StarTuple([float(), str(), float()])],
  ];

  for (const [name, gen] of kinds) {
    it(`orders ${name} exactly as the general comparison does`, () => {
      for (let round = 0; round < 40; round++) {
        const n = Math.floor(rnd() * 60);
        for (const reverse of [false, true]) {
          const values = Array.from({ length: n }, gen);
          const want = reference(values, undefined, reverse);
          const got = values.slice();
          stableSort(got, undefined, reverse);
          expect(got).toEqual(want);
          // with a key: values are tagged so that stability is observable
          const keys = Array.from({ length: n }, gen);
          const tagged = keys.map((_, i) => i);
          const wantTagged = reference(tagged, keys, reverse);
          const gotKeys = keys.slice();
          stableSort(tagged, gotKeys, reverse);
          expect(tagged).toEqual(wantTagged);
        }
      }
    });
  }

  it("still reports unordered keys", () => {
    const values: Value[] = [new StarTuple([1, None]), new StarTuple([1, 2])];
    expect(() => stableSort(values, undefined, false)).toThrow("not implemented");
    expect(() => stableSort([1, "a"], undefined, false)).toThrow("string < int not implemented");
  });
});
