import type { Claim, ClaimResult, NewInstance } from "@berth/engine";
import { EngineError } from "@berth/engine";
import { afterAll, describe, expect, it } from "vitest";
import { instanceOf, inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";
import type { SqliteStore } from "./sqlite-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

async function seeded(file: string): Promise<SqliteStore> {
  const store = await openStore(dir.file(file), { now: () => "2026-01-01T00:00:00.000Z" });
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.projects.create({ name: "limited", description: "", config: {} });
  await store.createMember(memberOf("a", { VCPU: inventoryOf(6), MEMORY_MB: inventoryOf(8192) }));
  await store.createMember(memberOf("b", { VCPU: inventoryOf(4, { stepSize: 2 }) }));
  await store.claim({ create: [{ ...instanceOf("old", "a", { VCPU: 1 }), id: "id-old" }] });
  return store;
}

/** The same ids on both stores: records are built once and given to both. */
function claims(): Claim[] {
  const fixed = (name: string, location: string, resources: Record<string, number>, extra = {}) =>
    ({ ...instanceOf(name, location, resources), id: `id-${name}`, ...extra }) as NewInstance;
  const limited = { instances: 2 };
  return [
    { create: [fixed("c1", "a", { VCPU: 2, MEMORY_MB: 1024 })] },
    { create: [{ ...fixed("old", "a", { VCPU: 1 }), id: "id-old-again" }] }, // name held by a stored instance
    { create: [fixed("c2", "a", { VCPU: 1 }), fixed("c3", "b", { VCPU: 2 })] },
    { create: [{ ...fixed("c1", "b", { VCPU: 2 }), id: "id-c1-again" }] }, // name taken earlier in the batch
    { create: [{ ...fixed("c4", "a", { VCPU: 1 }), id: "id-c1" }] }, // id taken earlier in the batch
    { create: [{ ...fixed("c5", "a", { VCPU: 1 }), id: "id-old" }] }, // id of a stored instance
    { create: [fixed("c6", "b", { VCPU: 1 })] }, // step size 2
    { create: [fixed("c7", "gone", { VCPU: 1 })] }, // no such member
    { create: [fixed("c8", "a", { VCPU: 1 }, { project: "nowhere" })] },
    { create: [fixed("r1", "a", { VCPU: 1 }, { forthcoming: true, name: "" })] }, // unnamed reservation
    { create: [fixed("c9", "a", { VCPU: 2 })] }, // a now holds 1 + 2 + 1 + 1 = 5 of 6: capacity
    { create: [fixed("l1", "b", { VCPU: 2 }, { project: "limited" })], projectLimits: { limited } },
    { create: [fixed("l2", "a", { VCPU: 1 }, { project: "limited" })], projectLimits: { limited } },
    { create: [fixed("l3", "a", { VCPU: 0 }, { project: "limited" })], projectLimits: { limited } },
    { create: [] },
  ];
}

type Settled = { ok: true; result: ClaimResult } | { ok: false; kind: string; details: unknown };

const settle = (promise: Promise<ClaimResult>): Promise<Settled> =>
  promise.then(
    (result) => ({ ok: true as const, result }),
    (error: unknown) => {
      if (!(error instanceof EngineError)) throw error;
      return { ok: false as const, kind: error.kind, details: error.details };
    },
  );

describe("a group commit of create-only claims checked against one read", () => {
  it("gives each claim what it would have got alone, one after another, and stores the same", async () => {
    const batched = await seeded("batched.db");
    const sequential = await seeded("sequential.db");
    try {
      // Submitted in one turn: one batch, on the create-only path.
      const together = await Promise.all(claims().map((claim) => settle(batched.claim(claim))));
      const alone: Settled[] = [];
      for (const claim of claims()) alone.push(await settle(sequential.claim(claim)));

      expect(together).toEqual(alone);
      expect(
        together.map((s) =>
          s.ok ? "ok" : ((s.details as { reason?: string } | undefined)?.reason ?? s.kind),
        ),
      ).toEqual([
        "ok",
        "name_taken",
        "ok",
        "name_taken",
        "id_taken",
        "id_taken",
        "constraints",
        "member_missing",
        "not_found",
        "ok",
        "capacity",
        "ok",
        "ok",
        "project_limit",
        "ok",
      ]);
      // The same state; only the feed differs (one entry per group commit instead of one per claim).
      const { feedCursor: _batchedCursor, ...batchedState } = await batched.snapshot();
      const { feedCursor: _sequentialCursor, ...sequentialState } = await sequential.snapshot();
      expect(batchedState).toEqual(sequentialState);
      expect(await batched.listInstances()).toEqual(await sequential.listInstances());
      expect((await batched.check()).violations).toEqual([]);
    } finally {
      await batched.close();
      await sequential.close();
    }
  });
});
