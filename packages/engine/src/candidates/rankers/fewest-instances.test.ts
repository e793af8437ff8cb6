import { describe, expect, it } from "vitest";
import { memberRecord, modelOf, placementRequest } from "../../testing/stack.fixture.js";
import { defaultStack } from "../default-stack.js";
import { fewestInstancesRanker } from "./fewest-instances.js";

describe("fewest instances ranker (the default policy)", () => {
  const stack = defaultStack();

  it("ranks by stored instances plus in-flight placements, reservations included", () => {
    const model = modelOf(stack, [memberRecord("a"), memberRecord("b"), memberRecord("c")]);
    const ranking = fewestInstancesRanker.rank(placementRequest(), model)!;
    model.member("a")!.instanceCount = 2;
    model.member("b")!.instanceCount = 1;
    model.addPending({ member: "b", project: "default", resources: {}, placementGroup: null });
    expect(["a", "b", "c"].map((name) => ranking.key(model.member(name)!))).toEqual([2, 2, 0]);
    expect(ranking.reject).toBeUndefined();
  });

  it("promises keys only grow until the model's load epoch moves", () => {
    const model = modelOf(stack, [memberRecord("a")]);
    const pending = { member: "a", project: "default", resources: {}, placementGroup: null };
    const before = fewestInstancesRanker.rank(placementRequest(), model)!.growsOnlyAtEpoch;
    model.addPending(pending);
    expect(fewestInstancesRanker.rank(placementRequest(), model)!.growsOnlyAtEpoch).toBe(before);
    model.releasePending(pending);
    expect(fewestInstancesRanker.rank(placementRequest(), model)!.growsOnlyAtEpoch).not.toBe(before);
  });

  it("always has a say (it is the base every other ranking refines)", () => {
    const model = modelOf(stack, []);
    expect(fewestInstancesRanker.rank(placementRequest(), model)).not.toBeNull();
  });
});
