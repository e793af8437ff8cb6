import { describe, expect, it } from "vitest";
import type { ClusterModel } from "../../model/cluster-model.js";
import type { PlacementPolicy, PlacementRigor } from "../../store/records.js";
import { memberRecord, modelOf, placementRequest } from "../../testing/stack.fixture.js";
import { defaultStack } from "../default-stack.js";
import { placementGroupRanker } from "./placement-group.js";

/** Members a, b, c hosting 2, 0 and 1 instances of group "pg". */
function hosting(counts: number[]): ClusterModel {
  const model = modelOf(
    defaultStack(),
    counts.map((_, index) => memberRecord(String.fromCharCode(97 + index))),
  );
  counts.forEach((count, index) => {
    for (let i = 0; i < count; i++) {
      const member = String.fromCharCode(97 + index);
      model.addPending({ member, project: "default", resources: {}, placementGroup: "pg" });
    }
  });
  return model;
}

function rankingFor(model: ClusterModel, policy: PlacementPolicy, rigor: PlacementRigor) {
  const request = placementRequest({
    placementGroup: "pg",
    groupPolicy: { project: "default", name: "pg", description: "", policy, rigor },
  });
  return placementGroupRanker.rank(request, model)!;
}

const keys = (model: ClusterModel, ranking: ReturnType<typeof rankingFor>) =>
  ["a", "b", "c"].map((name) => ranking.key(model.member(name)!) + 0);

describe("placement group ranker", () => {
  it("has nothing to say about a request without a placement group", () => {
    expect(placementGroupRanker.rank(placementRequest(), hosting([1, 0, 0]))).toBeNull();
  });

  it("spread ranks members hosting fewer of the group first, compact more", () => {
    const model = hosting([2, 0, 1]);
    expect(keys(model, rankingFor(model, "spread", "permissive"))).toEqual([2, 0, 1]);
    expect(keys(model, rankingFor(model, "compact", "permissive"))).toEqual([-2, 0, -1]);
    expect(rankingFor(model, "spread", "permissive").reject).toBeUndefined();
    expect(rankingFor(model, "compact", "permissive").reject).toBeUndefined();
  });

  it("strict spread turns down every member already hosting the group", () => {
    const model = hosting([2, 0, 1]);
    const ranking = rankingFor(model, "spread", "strict");
    expect(ranking.reject!(model.member("b")!)).toBeUndefined();
    expect(ranking.reject!(model.member("a")!)).toMatchObject({
      code: "spread:pg",
      one: 'already hosts an instance of placement group "pg" (strict spread)',
      many: 'already host instances of placement group "pg" (strict spread)',
    });
  });

  it("strict compact turns down members outside the group once it has a member", () => {
    const model = hosting([2, 0, 1]);
    const ranking = rankingFor(model, "compact", "strict");
    expect(ranking.reject!(model.member("c")!)).toBeUndefined();
    expect(ranking.reject!(model.member("b")!)).toMatchObject({
      code: "compact:pg",
      one: 'does not host placement group "pg" (strict compact)',
    });
    // The group's first instance may go anywhere.
    expect(rankingFor(hosting([0, 0, 0]), "compact", "strict").reject).toBeUndefined();
  });

  it("refines the default order in the stack: group counts first, then fewest instances", () => {
    const stack = defaultStack();
    const model = modelOf(
      stack,
      ["a", "b", "c", "d"].map((name) => memberRecord(name)),
    );
    // a hosts the group once; c hosts two unrelated instances.
    model.addPending({ member: "a", project: "default", resources: {}, placementGroup: "pg" });
    model.addPending({ member: "c", project: "default", resources: {}, placementGroup: null });
    model.addPending({ member: "c", project: "default", resources: {}, placementGroup: null });
    const request = placementRequest({
      placementGroup: "pg",
      groupPolicy: { project: "default", name: "pg", description: "", policy: "spread", rigor: "permissive" },
    });
    const time = { nowMs: Date.parse("2026-01-01T00:00:00.000Z"), offlineThresholdMs: 20_000 };
    const names = stack.candidates(model, request, time, "all").candidates.map((member) => member.name);
    expect(names).toEqual(["b", "d", "c", "a"]);
  });
});
