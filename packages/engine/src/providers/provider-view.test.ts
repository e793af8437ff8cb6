import { describe, expect, it } from "vitest";
import { MemberState } from "../model/member-state.js";
import { memberProviderUuid } from "../rules/ledger/shared-ledger.js";
import type { Engine } from "../services/engine.js";
import type { MemberRecord, ProviderRecord } from "../store/records.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { inventory, newMember } from "../testing/fixtures.js";
import type { CandidateRequest } from "./candidates.js";
import { ProviderViews } from "./provider-view.js";

const VCPU = (amount: number): CandidateRequest => ({
  groups: [{ suffix: "", resources: { VCPU: amount } }],
});

const claim = (consumerUuid: string, provider: string, vcpu: number) => ({
  consumerUuid,
  projectId: "p",
  userId: "u",
  consumerType: "INSTANCE",
  allocations: { [provider]: { VCPU: vcpu } },
});

async function provider(engine: Engine, name: string, vcpu: number): Promise<string> {
  const created = await engine.providers.create({ name });
  await engine.providers.setInventories(created.uuid, created.generation, { VCPU: { total: vcpu } });
  return created.uuid;
}

/** The providers the candidates take from, in order, and what each one's summary says is used. */
async function candidates(engine: Engine, amount: number) {
  const answer = await engine.providers.candidates(VCPU(amount));
  return {
    takers: answer.candidates.map((c) => Object.keys(c.allocations).join("+")),
    used: Object.fromEntries(answer.providers.map((p) => [p.uuid, answer.usage.get(p.uuid)?.VCPU ?? 0])),
  };
}

describe("the provider view kept between requests", () => {
  it("follows provider creation, allocations, inventory changes and deletion", async () => {
    const { engine } = await testCluster();
    const p1 = await provider(engine, "p1", 4);
    const p2 = await provider(engine, "p2", 4);
    expect((await candidates(engine, 2)).takers).toEqual([p1, p2]);

    // An allocation: the search and the summaries see it; the listing shows the generation it bumped.
    const before = (await engine.providers.get(p1)).generation;
    await engine.consumers.allocate([claim("c1", p1, 3)]);
    expect(await candidates(engine, 2)).toEqual({ takers: [p2], used: { [p2]: 0 } });
    expect(await candidates(engine, 1)).toEqual({ takers: [p1, p2], used: { [p1]: 3, [p2]: 0 } });
    expect((await engine.providers.list({ uuid: p1 }))[0]?.generation).toBe(before + 1);

    // An inventory change: p1 has room again.
    const { generation } = await engine.providers.get(p1);
    await engine.providers.setInventories(p1, generation, { VCPU: { total: 8 } });
    expect((await candidates(engine, 2)).takers).toEqual([p1, p2]);
    const answer = await engine.providers.candidates(VCPU(2));
    expect(answer.providers.find((p) => p.uuid === p1)?.inventories.VCPU?.total).toBe(8);

    // A new provider comes last (creation order); a deleted one is gone.
    const p3 = await provider(engine, "p3", 4);
    expect((await candidates(engine, 2)).takers).toEqual([p1, p2, p3]);
    await engine.providers.delete(p2);
    expect((await candidates(engine, 2)).takers).toEqual([p1, p3]);
    expect((await engine.providers.list()).map((p) => p.uuid)).toEqual([p1, p3]);

    // Removing the consumer frees its share.
    await engine.consumers.remove("c1");
    expect((await candidates(engine, 1)).used[p1]).toBe(0);
  });

  it("follows members: a new member's root, its instances and its inventories", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { vcpu: 4 });
    const root = memberProviderUuid("m1");
    expect((await candidates(engine, 4)).takers).toEqual([root]);

    await engine.createInstance({ name: "a", config: { "limits.cpu": "2" } });
    expect(await candidates(engine, 2)).toEqual({ takers: [root], used: { [root]: 2 } });
    expect((await candidates(engine, 4)).takers).toEqual([]);

    const { generation } = await engine.providers.get(root);
    await engine.providers.setInventories(root, generation, {
      VCPU: { total: 8 },
      MEMORY_MB: { total: 65536 },
    });
    expect((await candidates(engine, 6)).takers).toEqual([root]);

    await addMember(engine, "m2", { vcpu: 16 });
    expect((await candidates(engine, 10)).takers).toEqual([memberProviderUuid("m2")]);
  });

  it("follows what another engine on the same store writes", async () => {
    const { engine, store } = await testCluster();
    const other = (await testCluster({ store })).engine;
    const p1 = await provider(engine, "p1", 4);
    expect((await candidates(other, 4)).takers).toEqual([p1]);
    await engine.consumers.allocate([claim("c1", p1, 1)]);
    expect(await candidates(other, 1)).toEqual({ takers: [p1], used: { [p1]: 1 } });
    expect((await candidates(other, 4)).takers).toEqual([]);
    const p2 = await provider(engine, "p2", 8);
    expect((await candidates(other, 4)).takers).toEqual([p2]);
  });
});

const row = (uuid: string, generation: number, total: number): ProviderRecord => ({
  uuid,
  name: uuid,
  parentUuid: null,
  rootUuid: uuid,
  generation,
  inventories: { VCPU: { total, reserved: 0, minUnit: 1, maxUnit: total, stepSize: 1, allocationRatio: 1 } },
  traits: [],
  aggregates: [],
  createdAt: `2026-01-01T00:00:0${uuid.length}.000Z`,
  updatedAt: "",
});

const memberRecord = (name: string, vcpu: number, extra: Partial<MemberRecord> = {}): MemberRecord => ({
  ...newMember(name, { inventories: { VCPU: inventory(vcpu) } }),
  generation: 1,
  joinOrder: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});

describe("ProviderViews", () => {
  const none = new Map<string, Record<string, number>>();

  it("keeps the candidates' index across generation bumps and drops it when the shape moves", () => {
    const views = new ProviderViews();
    const rows = [row("a", 0, 4)];
    const first = views.current(rows, 1, [], none);
    const index = first.candidateIndex();
    expect(views.current(rows, 1, [], none)).toBe(first);

    // A claim: a new rows array with a bumped generation, the same shape.
    const bumped = [row("a", 1, 4)];
    const second = views.current(bumped, 1, [], none);
    expect(second.providers[0]?.generation).toBe(1);
    expect(second.candidateIndex()).toBe(index);

    // An inventory change moves the shape: a new index over the new rows.
    const grown = [row("a", 2, 8)];
    const third = views.current(grown, 2, [], none);
    expect(third.candidateIndex()).not.toBe(index);
    expect(third.candidateIndex().byUuid.get("a")?.inventories.VCPU?.total).toBe(8);

    // A read that raced a change (no settled shape) is never kept.
    const raced = views.current(grown, undefined, [], none);
    expect(views.current(grown, undefined, [], none)).not.toBe(raced);
  });

  it("reads usage through to the live ledgers", () => {
    const views = new ProviderViews();
    const consumers = new Map<string, Record<string, number>>();
    const view = views.current([row("a", 0, 4)], 1, [], consumers);
    expect(view.usage.get("a")).toBeUndefined();
    consumers.set("a", { VCPU: 3 });
    expect(view.usage.get("a")).toEqual({ VCPU: 3 });
  });

  it("keeps a member's root across a heartbeat's new record, and rebuilds it when the root changes", () => {
    const views = new ProviderViews();
    const member = new MemberState(memberRecord("m1", 4));
    const uuid = memberProviderUuid("m1");
    const rows: ProviderRecord[] = [];
    const first = views.current(rows, 1, [member], none);
    expect(first.providers.map((p) => [p.uuid, p.inventories.VCPU?.total])).toEqual([[uuid, 4]]);
    const index = first.candidateIndex();

    member.setRecord(memberRecord("m1", 4, { lastHeartbeat: "2026-01-01T00:01:00.000Z" }));
    const heartbeat = views.current(rows, 1, [member], none);
    expect(heartbeat).toBe(first);
    expect(heartbeat.candidateIndex()).toBe(index);

    member.setRecord(memberRecord("m1", 8, { generation: 2 }));
    const grown = views.current(rows, 1, [member], none);
    expect(grown.providers[0]?.inventories.VCPU?.total).toBe(8);
    expect(grown.candidateIndex()).not.toBe(index);

    // The member's instances count as its root's usage.
    member.setUsage({ member: "m1", used: { VCPU: 2 }, forthcoming: {} });
    expect(grown.usage.get(uuid)).toEqual({ VCPU: 2 });
  });
});
