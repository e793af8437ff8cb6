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

  it("rejects unhashable keys with go's message", () => {
    const ht = new HashTable();
    expect(() => ht.set(new StarList(), 1)).toThrow("unhashable type: list");
    expect(() => ht.get(new StarTuple([1, new StarList()]))).toThrow("unhashable type: list");
  });
});
