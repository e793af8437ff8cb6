import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { memberRecord, modelOf, placementRequest, TIME } from "../testing/stack.fixture.js";
import { defaultStack } from "./default-stack.js";
import { tieKey } from "./tie-order.js";

const names = (members: readonly { name: string }[]) => members.map((member) => member.name);
const MEMBERS = Array.from({ length: 12 }, (_, i) => `m${i + 1}`);

/** Places `count` instances one at a time (each held in the model like an in-flight claim). */
function placeMany(seed: number | undefined, count: number, loads: Record<string, number> = {}): string[] {
  const stack = defaultStack(seed === undefined ? {} : { tieSeed: seed });
  const model = modelOf(
    stack,
    MEMBERS.map((name) => memberRecord(name)),
  );
  for (const [name, load] of Object.entries(loads)) model.member(name)!.instanceCount = load;
  const request = placementRequest();
  const chosen: string[] = [];
  for (let i = 0; i < count; i++) {
    const [first] = stack.candidates(model, request, TIME, "first").candidates;
    chosen.push(first!.name);
    model.addPending({ member: first!.name, project: "default", resources: {}, placementGroup: null });
  }
  return chosen;
}

/** MEMBERS in the order of their keys under `seed`. */
const bySeed = (seed: number) => [...MEMBERS].sort((a, b) => tieKey(seed, a) - tieKey(seed, b));

describe("the stack's tie order", () => {
  it("is join order by default (LXD/Incus's tie-break)", () => {
    expect(placeMany(undefined, 14)).toEqual([...MEMBERS, "m1", "m2"]);
  });

  it("follows the seed's order with a seed: every member once per round, then round again", () => {
    const order = bySeed(7);
    expect(order).not.toEqual(MEMBERS);
    expect(placeMany(7, 14)).toEqual([...order, order[0], order[1]]);
    // The same seed, the same order (fixed per seed).
    expect(placeMany(7, 14)).toEqual(placeMany(7, 14));
  });

  it("breaks ties only: fewer instances still come first", () => {
    const loads = Object.fromEntries(MEMBERS.filter((name) => name !== "m5").map((name) => [name, 1]));
    expect(placeMany(7, 1, loads)).toEqual(["m5"]);
  });

  it("lists every candidate in the same order (what a scriptlet sees)", () => {
    const stack = defaultStack({ tieSeed: 7 });
    const model = modelOf(
      stack,
      MEMBERS.map((name) => memberRecord(name)),
    );
    const order = bySeed(7);
    model.member(order[0]!)!.instanceCount = 1;
    const all = stack.candidates(model, placementRequest(), TIME, "all").candidates;
    expect(names(all)).toEqual([...order.slice(1), order[0]]);
  });

  it("gives engines with different seeds different orders, so they start on different members", () => {
    const firsts = new Set([1, 2, 3, 4, 5, 6].map((seed) => placeMany(seed, 1)[0]));
    expect(firsts.size).toBeGreaterThan(2);
    expect(bySeed(1)).not.toEqual(bySeed(2));
  });

  it("keeps a member's place among the others whoever joins", () => {
    const before = bySeed(9).filter((name) => name !== "m3");
    const stack = defaultStack({ tieSeed: 9 });
    const model = modelOf(
      stack,
      MEMBERS.filter((name) => name !== "m3").map((name) => memberRecord(name)),
    );
    expect(names(stack.staticCandidates(model, placementRequest()))).toEqual(before);
  });

  it("refuses a seed that is not a whole number from 0 to 2^32 - 1, naming it", () => {
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) {
      expect(() => defaultStack({ tieSeed: bad })).toThrow(EngineError);
      expect(() => defaultStack({ tieSeed: bad })).toThrow(`Invalid tie seed ${bad}`);
    }
    expect(() => defaultStack({ tieSeed: 2 ** 32 - 1 })).not.toThrow();
  });
});
