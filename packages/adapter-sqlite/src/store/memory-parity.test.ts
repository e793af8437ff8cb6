import { type Claim, createMemoryStore, EngineError, type NewInstance, type Store } from "@berth/engine";
import { describe, expect, it } from "vitest";
import { instanceOf, inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { openStore } from "../open-store.js";

/** A small deterministic PRNG, so a failure replays exactly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function outcome(store: Store, claim: Claim): Promise<{ kind: string; value: unknown }> {
  try {
    const result = await store.claim(claim);
    return { kind: "ok", value: result };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { kind: error.kind, value: error.details };
  }
}

async function setUp(store: Store): Promise<void> {
  for (const project of ["default", "p2"])
    await store.projects.create({ name: project, description: "", config: {} });
  await store.placementGroups.create({
    project: "default",
    name: "db",
    description: "",
    policy: "spread",
    rigor: "strict",
    config: {},
  });
  for (const [name, cpus] of [
    ["a", 12],
    ["b", 8],
    ["c", 6],
  ] as const) {
    await store.createMember(
      memberOf(name, { VCPU: inventoryOf(cpus), MEMORY_MB: inventoryOf(4096, { stepSize: 256 }) }),
    );
  }
}

describe("the SQLite store and the engine's in-memory store agree", () => {
  it("on a random run of creates, reservations, commits, moves and removals (outcomes and snapshots)", async () => {
    const memory = await createMemoryStore();
    const sqlite = await openStore(":memory:");
    await setUp(memory);
    await setUp(sqlite);
    const next = random(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const members = ["a", "b", "c", "a", "b", "c", "gone"];
    const live: NewInstance[] = [];
    const revisions = new Map<string, number>();
    const seen = new Set<string>();

    for (let step = 0; step < 150; step++) {
      const roll = next();
      let claim: Claim;
      if (roll < 0.55 || live.length === 0) {
        const batch = Array.from({ length: 1 + Math.floor(next() * 2) }, (_, i) =>
          instanceOf(
            `s${step}-${i}`,
            pick(members),
            { VCPU: 1 + Math.floor(next() * 2), MEMORY_MB: pick([256, 512, 512, 300]) },
            {
              forthcoming: next() < 0.3,
              project: pick(["default", "p2"]),
              placementGroup: next() < 0.3 ? "db" : null,
              type: next() < 0.5 ? "container" : "virtual-machine",
            },
          ),
        );
        claim = { create: batch, projectLimits: { p2: { instances: 3, cpu: 4 } } };
      } else if (roll < 0.9) {
        const target = pick(live);
        const location = pick(members);
        const forthcoming = target.forthcoming && next() < 0.5;
        const record: NewInstance = {
          ...target,
          location,
          forthcoming,
          allocations: target.allocations.map((row) => ({
            ...row,
            member: location,
            ledger: forthcoming ? "forthcoming" : "used",
          })),
        };
        claim = { replace: [{ record, expectedRevision: revisions.get(target.id) ?? 1 }] };
      } else {
        const target = pick(live);
        claim = {
          remove: [{ id: target.id, expectedRevision: next() < 0.1 ? 99 : revisions.get(target.id) }],
        };
      }
      const expected = await outcome(memory, claim);
      expect(await outcome(sqlite, claim), `step ${step}`).toEqual(expected);
      seen.add(expected.kind === "ok" ? "ok" : String((expected.value as { reason?: string }).reason));
      if (expected.kind === "ok") {
        for (const removed of claim.remove ?? [])
          live.splice(
            live.findIndex((i) => i.id === removed.id),
            1,
          );
        for (const { record } of claim.replace ?? []) {
          live.splice(
            live.findIndex((i) => i.id === record.id),
            1,
            record,
          );
          revisions.set(record.id, (revisions.get(record.id) ?? 1) + 1);
        }
        for (const record of claim.create ?? []) live.push(record);
      }
    }

    const [a, b] = [await memory.snapshot(), await sqlite.snapshot()];
    const withoutClock = (snapshot: typeof a) => ({
      ...snapshot,
      members: snapshot.members.map(({ createdAt: _createdAt, ...rest }) => rest),
      instanceCounts: [...snapshot.instanceCounts].sort((x, y) =>
        `${x.member}/${x.project}`.localeCompare(`${y.member}/${y.project}`),
      ),
      placementGroupCounts: [...snapshot.placementGroupCounts].sort((x, y) =>
        `${x.project}/${x.group}/${x.member}`.localeCompare(`${y.project}/${y.group}/${y.member}`),
      ),
      projectUsage: [...snapshot.projectUsage].sort((x, y) => x.project.localeCompare(y.project)),
    });
    expect(withoutClock(b)).toEqual(withoutClock(a));
    const byId = (list: { id: string }[]) => [...list].sort((x, y) => x.id.localeCompare(y.id));
    expect(byId(await sqlite.listInstances())).toEqual(byId(await memory.listInstances()));
    expect(live.length).toBeGreaterThan(3);
    // The run went through successes and each kind of refusal it can produce.
    expect([...seen].sort()).toEqual([
      "capacity",
      "constraints",
      "member_missing",
      "ok",
      "project_limit",
      "revision",
    ]);
    expect((await sqlite.check()).violations).toEqual([]);
    await sqlite.close();
  });
});
