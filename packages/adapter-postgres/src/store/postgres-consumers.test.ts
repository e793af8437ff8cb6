/**
 * Placement consumer claims from two stores (two berthd servers) on one
 * PostgreSQL database at once: the provider row lock serializes them, so
 * the provider is never overcommitted and every refusal names capacity.
 */
import { EngineError, memberProviderUuid, type ProviderRecord } from "@berth/engine";
import { inventory, newInstance, newMember } from "@berth/engine/testing";
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");
const CAPACITY = 4;
const CLAIMS = 12;

let stores: PostgresStore[] = [];
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  stores = [await openPostgresStore(url), await openPostgresStore(url)];
});
afterAll(async () => {
  for (const store of stores) await store.close();
});

const root: ProviderRecord = {
  uuid: "p1",
  name: "root",
  parentUuid: null,
  rootUuid: "p1",
  generation: 0,
  inventories: {
    VCPU: { total: CAPACITY, reserved: 0, minUnit: 1, maxUnit: CAPACITY, stepSize: 1, allocationRatio: 1 },
  },
  traits: [],
  aggregates: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

it.skipIf(unavailable !== "")("never overcommits a provider under concurrent consumer claims", async () => {
  const [a, b] = stores as [PostgresStore, PostgresStore];
  await a.providers.create(root);
  const outcomes = await Promise.allSettled(
    Array.from({ length: CLAIMS }, (_, i) =>
      (i % 2 === 0 ? a : b).consumers.claim([
        {
          record: {
            uuid: `c${i}`,
            projectId: "proj",
            userId: "user",
            consumerType: null,
            allocations: [{ member: "p1", resourceClass: "VCPU", ledger: "used", amount: 1 }],
          },
          expectedGeneration: null,
        },
      ]),
    ),
  );
  const won = outcomes.filter((o) => o.status === "fulfilled");
  const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
  expect(won).toHaveLength(CAPACITY);
  for (const error of refused) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).kind).toBe("insufficient_capacity");
  }
  expect((await b.consumers.usage(["p1"])).get("p1")).toEqual({ VCPU: CAPACITY });
  expect(await a.consumers.list({ provider: "p1" })).toHaveLength(CAPACITY);
  expect((await b.providers.get({ name: "p1" }))?.generation).toBe(CAPACITY);
});

it.skipIf(unavailable !== "")(
  "never overcommits a member under instance and consumer claims from two servers at once (one ledger)",
  async () => {
    const [a, b] = stores as [PostgresStore, PostgresStore];
    await a.projects.create({ name: "default", description: "", config: {} }).catch(() => undefined);
    await a.createMember(newMember("m1", { inventories: { VCPU: inventory(CAPACITY) } }));
    const uuid = memberProviderUuid("m1");
    await a.providers.create({ ...root, uuid, rootUuid: uuid, name: "m1", inventories: {} });
    const outcomes = await Promise.allSettled(
      Array.from({ length: CLAIMS }, (_, i) => {
        const store = i % 2 === 0 ? a : b;
        return i % 3 === 0
          ? store.claim({ create: [newInstance(`i${i}`, "m1", { VCPU: 1 })] })
          : store.consumers.claim([
              {
                record: {
                  uuid: `m${i}`,
                  projectId: "proj",
                  userId: "user",
                  consumerType: null,
                  allocations: [{ member: uuid, resourceClass: "VCPU", ledger: "used", amount: 1 }],
                },
              },
            ]);
      }),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(CAPACITY);
    for (const o of outcomes)
      if (o.status === "rejected") expect((o.reason as EngineError).kind).toBe("insufficient_capacity");
    expect((await b.memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: CAPACITY });
    expect((await a.check()).violations).toEqual([]);
  },
);
