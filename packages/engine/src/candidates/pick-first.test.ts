import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import type { InstanceRecord } from "../store/records.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { inventory } from "../testing/fixtures.js";
import { memberRecord, modelOf, NOW, placementRequest } from "../testing/stack.fixture.js";
import { defaultStack } from "./default-stack.js";
import type { Timing } from "./filter.js";

/** What a step of the model's life can be. */
type Step =
  | { kind: "create"; memory: number; pending: boolean }
  | { kind: "settle"; pick: number }
  | { kind: "release"; pick: number }
  | { kind: "delete"; pick: number }
  | { kind: "move"; pick: number; to: number }
  | { kind: "heartbeat"; member: number; ageMs: number }
  | { kind: "tick"; ms: number }
  | { kind: "evacuate"; member: number; evacuated: boolean };

const MEMBERS = 6;

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("create" as const),
      memory: fc.integer({ min: 1, max: 6 }),
      pending: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settle" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("move" as const),
      pick: fc.nat(),
      to: fc.nat({ max: MEMBERS - 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("heartbeat" as const),
      member: fc.nat({ max: MEMBERS - 1 }),
      ageMs: fc.integer({ min: 0, max: 30_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("tick" as const), ms: fc.integer({ min: 0, max: 15_000 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("evacuate" as const),
      member: fc.nat({ max: MEMBERS - 1 }),
      evacuated: fc.boolean(),
    }),
  },
);

describe("pick-first against the ordered candidates (property)", () => {
  // The stack's "first" answer (O(1) amortized through the scan hint) must
  // always be what the full, ordered candidate list puts first, and fail
  // with the same explanation when nothing fits, whatever happened before:
  // placements claimed or still in flight, released, deleted and moved
  // instances (loads shrinking), heartbeats and silence, evacuations.
  it("answers as the slow path over random creates, deletes, moves, releases and heartbeats", () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { minLength: 1, maxLength: 120 }), (steps) => {
        const stack = defaultStack();
        const model = modelOf(
          stack,
          Array.from({ length: MEMBERS }, (_, index) =>
            memberRecord(`m${index}`, {
              inventories: { VCPU: inventory(64), MEMORY_MB: inventory(1024 * (4 + (index % 3) * 4)) },
            }),
          ),
        );
        const used = new Map<string, number>();
        const setUsed = (member: string, by: number) => {
          used.set(member, (used.get(member) ?? 0) + by);
          model.setUsage([{ member, used: { MEMORY_MB: used.get(member)! }, forthcoming: {} }]);
        };
        const instances: InstanceRecord[] = [];
        const inFlight: PendingPlacement[] = [];
        const time: Timing = { nowMs: NOW, offlineThresholdMs: 20_000 };
        const stored = (member: string, memory: number) =>
          ({
            location: member,
            project: "default",
            forthcoming: false,
            type: "container",
            placementGroup: null,
            limitsUsage: { cpu: 0, memoryBytes: memory, diskBytes: 0 },
            memory,
          }) as unknown as InstanceRecord & { memory: number };
        const memoryOf = (record: InstanceRecord) => (record as InstanceRecord & { memory: number }).memory;
        /** What a claim that created the pending placement's instance does to the model. */
        const settle = (pending: PendingPlacement) => {
          model.settlePending(pending);
          const record = stored(pending.member, pending.resources.MEMORY_MB!);
          model.countInstance(record, 1);
          setUsed(pending.member, memoryOf(record));
          instances.push(record);
        };
        for (const step of steps) {
          switch (step.kind) {
            case "create": {
              const request = placementRequest({ resources: { MEMORY_MB: step.memory * 1024 } });
              const fast = stack.candidates(model, request, time, "first");
              const slow = stack.candidates(model, request, time, "all");
              expect(fast.candidates[0]?.name).toBe(slow.candidates[0]?.name);
              expect(fast.rejected).toEqual(slow.rejected);
              const chosen = fast.candidates[0];
              if (chosen === undefined) break;
              const pending = {
                member: chosen.name,
                project: "default",
                resources: request.resources,
                placementGroup: null,
              };
              model.addPending(pending);
              if (step.pending) inFlight.push(pending);
              else settle(pending);
              break;
            }
            case "settle":
            case "release": {
              const [pending] = inFlight.splice(step.pick % Math.max(1, inFlight.length), 1);
              if (pending === undefined) break;
              if (step.kind === "release") model.releasePending(pending);
              else settle(pending);
              break;
            }
            case "delete":
            case "move": {
              const index = step.pick % Math.max(1, instances.length);
              const record = instances[index];
              if (record === undefined) break;
              model.countInstance(record, -1);
              setUsed(record.location, -memoryOf(record));
              instances.splice(index, 1);
              if (step.kind === "move") {
                const moved = stored(`m${step.to}`, memoryOf(record));
                model.countInstance(moved, 1);
                setUsed(moved.location, memoryOf(moved));
                instances.push(moved);
              }
              break;
            }
            case "heartbeat": {
              const member = model.member(`m${step.member}`)!;
              model.upsertMember({
                ...member.record,
                lastHeartbeat: new Date(time.nowMs - step.ageMs).toISOString(),
              });
              break;
            }
            case "tick":
              time.nowMs += step.ms;
              break;
            case "evacuate": {
              const member = model.member(`m${step.member}`)!;
              model.upsertMember({ ...member.record, evacuated: step.evacuated });
              break;
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("default policy pick through the engine (property)", () => {
  type Op =
    | { kind: "create"; memory: number }
    | { kind: "bulk"; memories: number[] }
    | { kind: "delete"; pick: number }
    | { kind: "move"; pick: number; to: number }
    | { kind: "quiet"; alive: boolean[] };

  const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant("create" as const), memory: fc.integer({ min: 1, max: 3 }) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("bulk" as const),
        memories: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 6 }),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), to: fc.nat({ max: 7 }) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("quiet" as const),
        alive: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      }),
    },
  );

  // A create (the fast pick) lands where a dry run (the full, ordered list) says it would.
  it("places every create where the dry run's ordered candidates put it first", async () => {
    let created = 0;
    /** Creates checked against a dry run: the property must have exercised some. */
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 10, maxLength: 40 }), async (ops) => {
        const { engine, clock } = await testCluster();
        for (let i = 0; i < 8; i++) await addMember(engine, `n${i}`, { memoryMb: 4096 + 1024 * (i % 3) });
        const live: string[] = [];
        for (const op of ops) {
          switch (op.kind) {
            case "create": {
              const body = { name: `i${created++}`, config: { "limits.memory": `${op.memory}GiB` } };
              const dry = await engine.dryRun(body);
              compared += 1;
              try {
                const outcome = await engine.createInstance(body);
                expect(dry.decision).toMatchObject({ outcome: "placed", member: outcome.instance.location });
                live.push(body.name);
              } catch (error) {
                if (!(error instanceof EngineError)) throw error;
                expect(dry.decision.outcome).toBe("rejected");
                expect(dry.decision.outcome === "rejected" && dry.decision.error.message).toBe(error.message);
              }
              break;
            }
            case "bulk": {
              const bodies = op.memories.map((memory) => ({
                name: `i${created++}`,
                config: { "limits.memory": `${memory}GiB` },
              }));
              const outcome = await engine.bulkCreate(bodies).catch((error: unknown) => {
                if (!(error instanceof EngineError)) throw error;
              });
              if (outcome !== undefined) live.push(...bodies.map((body) => body.name));
              break;
            }
            case "delete": {
              const [name] = live.splice(op.pick % Math.max(1, live.length), 1);
              if (name !== undefined) await engine.deleteInstance("default", name);
              break;
            }
            case "move": {
              const name = live[op.pick % Math.max(1, live.length)];
              if (name === undefined) break;
              await engine.moveInstance("default", name, `n${op.to}`).catch((error: unknown) => {
                if (!(error instanceof EngineError)) throw error;
              });
              break;
            }
            case "quiet":
              // Some members go quiet for a while, the others heartbeat.
              clock.advance(15_000);
              for (const [i, alive] of op.alive.entries()) if (alive) await engine.heartbeat(`n${i}`);
              break;
          }
        }
      }),
      { numRuns: 25 },
    );
    // 25 runs of at least 10 operations, half of them creates: far more than 25.
    expect(compared).toBeGreaterThan(25);
  });

  it("a bulk create spreads like one create at a time", async () => {
    const { engine } = await testCluster();
    for (let i = 0; i < 5; i++) await addMember(engine, `n${i}`);
    await engine.createInstance({ name: "first" }, { target: "n2" });
    const bulk = await engine.bulkCreate(
      Array.from({ length: 12 }, (_, i) => ({ name: `b${i}`, config: { "limits.memory": "1GiB" } })),
    );
    const perMember = new Map<string, number>();
    for (const instance of bulk.instances) {
      perMember.set(instance.location, (perMember.get(instance.location) ?? 0) + 1);
    }
    // 13 instances over 5 members: n2 already had one, so it gets one fewer.
    expect(Object.fromEntries([...perMember].sort())).toEqual({ n0: 3, n1: 3, n2: 2, n3: 2, n4: 2 });
    expect(bulk.instances.slice(0, 5).map((instance) => instance.location)).toEqual([
      "n0",
      "n1",
      "n3",
      "n4",
      "n0",
    ]);
  });
});
