import { describe, expect, it } from "vitest";
import type { PlacementRequest } from "../../expand/request.js";
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
    groupPolicy: { project: "default", name: "pg", description: "", policy, rigor, config: {} },
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
      groupPolicy: {
        project: "default",
        name: "pg",
        description: "",
        policy: "spread",
        rigor: "permissive",
        config: {},
      },
    });
    const time = { nowMs: Date.parse("2026-01-01T00:00:00.000Z"), offlineThresholdMs: 20_000 };
    const names = stack.candidates(model, request, time, "all").candidates.map((member) => member.name);
    expect(names).toEqual(["b", "d", "c", "a"]);
  });
});

describe("placement group ranker over a topology key", () => {
  const TIME = { nowMs: Date.parse("2026-01-01T00:00:00.000Z"), offlineThresholdMs: 20_000 };
  /** Six members, two per rack A1, B1, C1 (a1 a2 b1 b2 c1 c2), and x without a rack. */
  function racks(withKeyless = false) {
    const stack = defaultStack();
    const names = ["a1", "a2", "b1", "b2", "c1", "c2"];
    const records = names.map((name) =>
      memberRecord(name, { config: { "topology.rack": `${name[0]!.toUpperCase()}1` } }),
    );
    if (withKeyless) records.push(memberRecord("x"), memberRecord("y"));
    return { stack, model: modelOf(stack, records) };
  }
  const group = (policy: PlacementPolicy, rigor: PlacementRigor, topology = "rack") => ({
    project: "default",
    name: "pg",
    description: "",
    policy,
    rigor,
    config: { topology },
  });
  const requestFor = (policy: PlacementPolicy, rigor: PlacementRigor, movingFrom: string | null = null) =>
    placementRequest({ placementGroup: "pg", groupPolicy: group(policy, rigor), movingFrom });
  /** Places one instance of the group as the stack decides, as a pending placement; returns its member. */
  function place(stack: ReturnType<typeof defaultStack>, model: ClusterModel, request: PlacementRequest) {
    const set = stack.candidates(model, request, TIME, "all");
    const member = set.candidates[0]?.name;
    if (member !== undefined)
      model.addPending({ member, project: "default", resources: {}, placementGroup: "pg" });
    return { member, set };
  }

  it("strict spread puts one instance per rack and then refuses, naming the group, the key and the values", () => {
    const { stack, model } = racks();
    const placed = [1, 2, 3].map(() => place(stack, model, requestFor("spread", "strict")).member);
    expect(placed).toEqual(["a1", "b1", "c1"]);
    const { member, set } = place(stack, model, requestFor("spread", "strict"));
    expect(member).toBeUndefined();
    expect(set.rejected).toHaveLength(6);
    expect(set.rejected[0]!.rejection.many).toBe(
      'are in a rack that already holds an instance of placement group "pg" (strict spread over topology key "rack"; values in use: "A1", "B1", "C1")',
    );
  });

  it("permissive spread prefers the emptiest rack, then the emptier member: six land two per rack", () => {
    const { stack, model } = racks();
    const placed = [1, 2, 3, 4, 5, 6].map(
      () => place(stack, model, requestFor("spread", "permissive")).member,
    );
    expect(placed).toEqual(["a1", "b1", "c1", "a2", "b2", "c2"]);
  });

  it("members without the key form one domain of their own", () => {
    const { stack, model } = racks(true);
    const placed = [1, 2, 3, 4].map(() => place(stack, model, requestFor("spread", "strict")).member);
    expect(placed).toEqual(["a1", "b1", "c1", "x"]);
    const { set } = place(stack, model, requestFor("spread", "strict"));
    expect(set.candidates).toEqual([]);
    expect(set.rejected[0]!.rejection.many).toContain(
      'values in use: "A1", "B1", "C1", members without topology.rack',
    );
  });

  it("a moving instance does not count against itself: it may stay in its rack", () => {
    const { model } = racks();
    for (const member of ["a1", "b1", "c1"])
      model.addPending({ member, project: "default", resources: {}, placementGroup: "pg" });
    const moving = requestFor("spread", "strict", "c1");
    const ranking = placementGroupRanker.rank(moving, model)!;
    expect(ranking.reject!(model.member("c2")!)).toBeUndefined();
    expect(ranking.reject!(model.member("a2")!)?.code).toBe("spread:pg");
  });

  it("strict compact keeps to the rack it started in; failure_domain is a topology key", () => {
    const { stack, model } = racks();
    const compact = placementRequest({ placementGroup: "pg", groupPolicy: group("compact", "strict") });
    expect(place(stack, model, compact).member).toBe("a1");
    const ranking = placementGroupRanker.rank(compact, model)!;
    expect(ranking.reject!(model.member("a2")!)).toBeUndefined();
    expect(ranking.reject!(model.member("b1")!)?.one).toBe(
      'is outside the rack of placement group "pg" (strict compact over topology key "rack"; values in use: "A1")',
    );
    const byDomain = modelOf(stack, [
      memberRecord("m1", { failureDomain: "east" }),
      memberRecord("m2", { failureDomain: "east" }),
      memberRecord("m3", { failureDomain: "west" }),
    ]);
    const spread = placementRequest({
      placementGroup: "pg",
      groupPolicy: group("spread", "strict", "failure_domain"),
    });
    expect([1, 2].map(() => place(stack, byDomain, spread).member)).toEqual(["m1", "m3"]);
  });
});
