import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashTable } from "./hashtable.js";
import {
  type CompareOp,
  equals,
  None,
  StarFloat,
  StarList,
  StarTuple,
  type StarValue,
  type Value,
} from "./index.js";

/** A host value with structural equality (exercises the hash-probing path). */
class Point implements StarValue {
  readonly type = "point";
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  /** Deliberately weak hash so that different points collide. */
  hash(): number {
    return (this.x + this.y) & 3;
  }
  compareSameType(op: CompareOp, other: StarValue): boolean {
    const o = other as Point;
    const eq = this.x === o.x && this.y === o.y;
    if (op === "==") return eq;
    if (op === "!=") return !eq;
    throw new Error("unordered");
  }
}

/** An identity-compared host value. */
class Handle implements StarValue {
  readonly type = "handle";
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    return 7;
  }
}

describe("HashTable", () => {
  it("matches a reference model on mixed keys, including colliding host values (property)", () => {
    const handles = [new Handle(), new Handle()];
    const key: fc.Arbitrary<Value> = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -3, max: 3 }).map((n) => new StarFloat(n) as Value),
      fc.constantFrom<Value>("a", "b", true, false, None, ...handles),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
        .map(([x, y]) => new Point(x, y) as Value),
      fc
        .tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom<Value>("a", new Point(1, 1)))
        .map(([x, y]) => new StarTuple([x, y]) as Value),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key, fc.integer())), (ops) => {
        const ht = new HashTable();
        const model: [Value, Value][] = [];
        for (const [del, k, v] of ops) {
          const i = model.findIndex(([mk]) => equals(mk, k));
          if (del) {
            const got = ht.delete(k);
            if (i >= 0) {
              expect(got).toBe(model[i]?.[1]);
              model.splice(i, 1);
            } else expect(got).toBeUndefined();
          } else {
            ht.set(k, v);
            if (i >= 0) (model[i] as [Value, Value])[1] = v;
            else model.push([k, v]);
          }
          expect(ht.size).toBe(model.length);
        }
        const entries = ht.entries();
        expect(entries.length).toBe(model.length);
        entries.forEach(([k, v], i) => {
          expect(equals(k, (model[i] as [Value, Value])[0])).toBe(true);
          expect(v).toBe((model[i] as [Value, Value])[1]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("keeps insertion order through growth, removals, compaction and re-insertion (property)", () => {
    // Many distinct keys, so tables outgrow the linear-scan size and build their index.
    const key: fc.Arbitrary<Value> = fc.oneof(
      fc.integer({ min: 0, max: 80 }).map((n) => `k${n}`),
      fc.integer({ min: -40, max: 40 }),
      fc.integer({ min: -40, max: 40 }).map((n) => new StarFloat(n) as Value),
      fc.constantFrom<Value>(new StarFloat(Number.NaN), new StarFloat(0.5), 2 ** 60, true, None),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), key), { maxLength: 400 }), (ops) => {
        const ht = new HashTable();
        const model: [Value, Value][] = [];
        let counter = 0;
        for (const [op, k] of ops) {
          // NaN is not equal to itself, yet the same NaN object finds its entry (as before).
          const i = model.findIndex(([mk]) => equals(mk, k) || mk === k);
          if (op === 0) {
            const got = ht.delete(k);
            if (i >= 0) {
              expect(got).toBe(model[i]?.[1]);
              model.splice(i, 1);
            } else expect(got).toBeUndefined();
          } else if (op === 3 && model.length > 0) {
            // popitem: the first entry in order.
            const first = ht.first();
            expect(first?.[1]).toBe(model[0]?.[1]);
            ht.delete((first as [Value, Value])[0]);
            model.shift();
          } else {
            const v = counter++;
            ht.set(k, v);
            if (i >= 0) (model[i] as [Value, Value])[1] = v;
            else model.push([k, v]);
          }
          expect(ht.size).toBe(model.length);
          const now = model.find(([mk]) => equals(mk, k) || mk === k);
          expect(ht.get(k)).toBe(now?.[1]);
        }
        expect(ht.values()).toEqual(model.map(([, v]) => v));
        for (const [mk, mv] of model) expect(ht.get(mk)).toBe(mv);
      }),
      { numRuns: 150 },
    );
  });

  it("finds every key of a large table and none of the removed ones", () => {
    const ht = new HashTable();
    for (let i = 0; i < 5000; i++) ht.set(`key${i}`, i);
    for (let i = 0; i < 5000; i += 3) ht.delete(`key${i}`);
    for (let i = 0; i < 2000; i++) ht.set(i, -i);
    expect(ht.size).toBe(5000 - 1667 + 2000);
    for (let i = 0; i < 5000; i++) expect(ht.get(`key${i}`)).toBe(i % 3 === 0 ? undefined : i);
    expect(ht.get(new StarFloat(7))).toBe(-7);
    expect(ht.keys().slice(0, 3)).toEqual(["key1", "key2", "key4"]);
    expect(ht.keys().at(-1)).toBe(1999);
  });

  it("copies a table entry for entry, independent of the original", () => {
    const src = new HashTable();
    for (let i = 0; i < 100; i++) src.set(`k${i}`, i);
    for (let i = 0; i < 100; i += 4) src.delete(`k${i}`);
    src.set(new StarFloat(2.5), "f");
    src.set(new StarTuple([1, "a"]), "t");
    src.set(new Point(1, 2), "p");
    const copy = new HashTable();
    expect(copy.copyFrom(src)).toBe(true);
    expect(copy.entries()).toEqual(src.entries());
    copy.set("k1", -1);
    copy.delete("k2");
    copy.set("new", 0);
    expect(src.get("k1")).toBe(1);
    expect(src.get("k2")).toBe(2);
    expect(src.get("new")).toBeUndefined();
    expect(copy.get(new Point(1, 2))).toBe("p");
    expect(copy.get(new StarTuple([1, "a"]))).toBe("t");
    expect(copy.size).toBe(src.size);
    // Only into an empty, mutable table.
    expect(copy.copyFrom(src)).toBe(false);
    const frozen = new HashTable();
    frozen.frozen = true;
    expect(frozen.copyFrom(src)).toBe(false);
  });

  it("rejects unhashable keys with go's message", () => {
    const ht = new HashTable();
    expect(() => ht.set(new StarList(), 1)).toThrow("unhashable type: list");
    expect(() => ht.get(new StarTuple([1, new StarList()]))).toThrow("unhashable type: list");
  });
});
