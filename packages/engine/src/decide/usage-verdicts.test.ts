import { describe, expect, it } from "vitest";
import { defaultStack } from "../candidates/default-stack.js";
import type { Timing } from "../candidates/filter.js";
import type { PlacementStack } from "../candidates/stack.js";
import type { PlacementRequest } from "../expand/request.js";
import type { ClusterModel } from "../model/cluster-model.js";
import { inventory } from "../testing/fixtures.js";
import { memberRecord, modelOf, NOW, placementRequest } from "../testing/stack.fixture.js";
import { currentVerdicts, explainPlacement } from "./explain.js";
import { RejectionTally } from "./tally.js";

/**
 * What the kept verdicts must always answer: the walk over every static
 * candidate that explaining a decision used to make (each member the usage
 * filters turn down, asked why, in the set's order).
 */
function walked(stack: PlacementStack, model: ClusterModel, request: PlacementRequest, time: Timing) {
  const tally = new RejectionTally();
  const admits = stack.admitter(request);
  let fit = 0;
  for (const member of stack.staticCandidates(model, request)) {
    if (admits(member, time)) fit += 1;
    else tally.add(member.name, stack.check(member, request, time)!);
  }
  return { fit, groups: tally.groups() };
}

/** A small deterministic generator, so a failure replays. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * One random change of the kind placements meet: a claim or its release, a usage report, a
 * heartbeat, time passing or the clock stepping back. Returns the time after it.
 */
function churn(model: ClusterModel, random: () => number, time: Timing): Timing {
  const members = model.allMembers();
  const roll = random();
  const member = members[Math.floor(random() * members.length)]!;
  if (roll < 0.45) member.addPending("VCPU", 1);
  else if (roll < 0.6) member.addPending("VCPU", -Math.min(1, member.consumed("VCPU")));
  else if (roll < 0.7) member.addUsage("used", "MEMORY_MB", 1024);
  else if (roll < 0.85) {
    member.setRecord({ ...member.record, lastHeartbeat: new Date(time.nowMs).toISOString() });
  } else if (roll < 0.97) return { ...time, nowMs: time.nowMs + Math.floor(random() * 6000) };
  else return { ...time, nowMs: time.nowMs - 3000 };
  return time;
}

/** 70 members, every third with little memory; a small and a large request. */
function churnedCluster() {
  const stack = defaultStack();
  const records = Array.from({ length: 70 }, (_, index) =>
    memberRecord(`m${index}`, {
      inventories: { VCPU: inventory(4), MEMORY_MB: inventory(index % 3 === 0 ? 512 : 4096) },
    }),
  );
  const model = modelOf(stack, records);
  const small = placementRequest();
  const large = placementRequest({}, { config: { "limits.cpu": "2", "limits.memory": "2GiB" } });
  return { stack, model, requests: [small, large] as const };
}

describe("kept usage verdicts", () => {
  it("answer what a walk over every member answers, through usage changes, heartbeats and time", () => {
    const { stack, model, requests } = churnedCluster();
    const random = sequence(7);
    let time: Timing = { nowMs: NOW, offlineThresholdMs: 20_000 };
    for (let step = 0; step < 600; step++) {
      time = churn(model, random, time);
      const request = random() < 0.5 ? requests[0] : requests[1];
      const explained = explainPlacement(stack, model, request, time, null);
      const reference = walked(stack, model, request, time);
      expect({ step, fit: explained.candidateCount, groups: explained.rejections }).toEqual({
        step,
        fit: reference.fit,
        groups: reference.groups,
      });
    }
  });

  it("give a listed placement the candidates, in the order, that judging every member gives", () => {
    const { stack, model, requests } = churnedCluster();
    const random = sequence(11);
    let time: Timing = { nowMs: NOW, offlineThresholdMs: 20_000 };
    const names = (members: readonly { name: string }[]) => members.map((member) => member.name);
    for (let step = 0; step < 600; step++) {
      time = churn(model, random, time);
      const request = random() < 0.5 ? requests[0] : requests[1];
      const fitting = currentVerdicts(stack, model, request, time).fitting();
      const kept = stack.candidates(model, request, time, "all", fitting).candidates;
      const judged = stack.candidates(model, request, time, "all").candidates;
      expect({ step, candidates: names(kept) }).toEqual({ step, candidates: names(judged) });
    }
  });

  it("catch up on changes the journal no longer holds", () => {
    const stack = defaultStack();
    const records = Array.from({ length: 8 }, (_, index) => memberRecord(`m${index}`));
    const model = modelOf(stack, records);
    const request = placementRequest();
    const time: Timing = { nowMs: NOW, offlineThresholdMs: 20_000 };
    expect(explainPlacement(stack, model, request, time, null).candidateCount).toBe(8);
    const full = model.member("m3")!;
    // Far more changes than the journal keeps, the last of which fills m3.
    for (let index = 0; index < 10_000; index++) model.member("m1")!.addPending("VCPU", 0);
    full.addPending("VCPU", 16);
    const explained = explainPlacement(stack, model, request, time, null);
    expect(explained.candidateCount).toBe(7);
    expect(explained.rejections.map((group) => `${group.code}:${group.members.join(",")}`)).toEqual([
      "capacity:VCPU:m3",
    ]);
  });
});
