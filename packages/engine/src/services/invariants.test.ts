/**
 * Property test: any sequence of creates, reservations, commits, moves,
 * evacuations and deletes keeps the books straight — allocations sum to the
 * store's usage, usage never exceeds capacity, and the engine's model agrees
 * with the store.
 */
import { inventoryCapacity } from "@berth/resources";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import type { Engine } from "./engine.js";

type Op =
  | { kind: "create"; memory: number; forthcoming: boolean }
  | { kind: "bulk"; memories: number[] }
  | { kind: "commit"; pick: number }
  | { kind: "move"; pick: number; target: number }
  | { kind: "delete"; pick: number }
  | { kind: "evacuate"; member: number }
  | { kind: "restore"; member: number };

const MEMBERS = ["m1", "m2", "m3"];

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    memory: fc.integer({ min: 1, max: 6 }),
    forthcoming: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("bulk" as const),
    memories: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
  }),
  fc.record({ kind: fc.constant("commit" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), target: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("evacuate" as const), member: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant("restore" as const), member: fc.nat({ max: 2 }) }),
);

let counter = 0;

async function apply(engine: Engine, op: Op): Promise<void> {
  const instances = await engine.listInstances();
  const pick = (n: number) => instances[n % Math.max(1, instances.length)];
  const body = (memory: number, forthcoming = false) => ({
    name: `i${++counter}`,
    forthcoming,
    config: { "limits.memory": `${memory}GiB` },
  });
  switch (op.kind) {
    case "create":
      await engine.createInstance(body(op.memory, op.forthcoming));
      return;
    case "bulk":
      await engine.bulkCreate(op.memories.map((memory) => body(memory)));
      return;
    case "commit": {
      const target = pick(op.pick);
      if (target?.forthcoming) await engine.commitReservation("default", target.id);
      return;
    }
    case "move": {
      const target = pick(op.pick);
      if (target !== undefined) await engine.moveInstance("default", target.id, MEMBERS[op.target]!);
      return;
    }
    case "delete": {
      const target = pick(op.pick);
      if (target !== undefined) await engine.deleteInstance("default", target.id);
      return;
    }
    case "evacuate":
      await engine.evacuateMember(MEMBERS[op.member]!);
      return;
    case "restore":
      await engine.restoreMember(MEMBERS[op.member]!);
      return;
  }
}

async function checkBooks(engine: Engine): Promise<void> {
  const store = engine.store;
  const instances = await store.listInstances();
  const sums = new Map<string, number>();
  for (const row of instances.flatMap((instance) => instance.allocations)) {
    const key = `${row.member}/${row.ledger}/${row.resourceClass}`;
    sums.set(key, (sums.get(key) ?? 0) + row.amount);
  }
  const usage = await store.memberUsage(MEMBERS);
  for (const row of usage) {
    const member = (await store.getMember(row.member))!;
    for (const [resourceClass, inventory] of Object.entries(member.inventories)) {
      const used = row.used[resourceClass] ?? 0;
      const forthcoming = row.forthcoming[resourceClass] ?? 0;
      expect(used).toBe(sums.get(`${row.member}/used/${resourceClass}`) ?? 0);
      expect(forthcoming).toBe(sums.get(`${row.member}/forthcoming/${resourceClass}`) ?? 0);
      expect(used + forthcoming).toBeLessThanOrEqual(inventoryCapacity(inventory));
    }
    const model = engine.getMember(row.member);
    expect(model.usage.used).toEqual(row.used);
    expect(model.usage.forthcoming).toEqual(row.forthcoming);
    expect(model.usage.pending).toEqual({});
    expect(model.instances).toBe(instances.filter((instance) => instance.location === row.member).length);
  }
}

describe("invariants under random operation sequences", () => {
  it("never overcommits and keeps model and store in step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { engine } = await testCluster();
        for (const name of MEMBERS) await addMember(engine, name, { memoryMb: 8192 });
        for (const op of ops) {
          try {
            await apply(engine, op);
          } catch (error) {
            // Refusals are fine (full cluster, same member, ...); anything else is a bug.
            if (!(error instanceof EngineError) || error.kind === "internal") throw error;
          }
          await checkBooks(engine);
        }
      }),
      { numRuns: 40 },
    );
  });
});
