/**
 * Two engines (two berthd servers) on one PostgreSQL database follow each
 * other's committed changes through the change feed, with no restart and
 * no waiting for a tick: scriptlets reach the other server's compiled
 * cache, capacity freed through one is free in the other at once, and
 * members and inventories changed through one are placed on by the other.
 */
import { Engine, EngineError } from "@berth/engine";
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPostgresStore } from "./open-store.js";
import type { PostgresStore } from "./store/postgres-store.js";

const unavailable = inject("postgresUnavailable");
const ONE_CPU = { config: { "limits.cpu": "1", "limits.memory": "64MiB" } };
const INVENTORIES = { VCPU: { total: 2, allocation_ratio: 1 }, MEMORY_MB: { total: 8192 } };

let stores: PostgresStore[] = [];
let a: Engine;
let b: Engine;
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  stores = [await openPostgresStore(url), await openPostgresStore(url)];
  a = await Engine.open({ store: stores[0]! });
  b = await Engine.open({ store: stores[1]! });
  await a.members.create({ name: "n1", inventories: INVENTORIES });
  await a.members.create({ name: "n2", inventories: INVENTORIES });
});
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function refusal(work: Promise<unknown>): Promise<EngineError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

if (unavailable !== "") it.skip(`two engines on PostgreSQL skipped: ${unavailable}`, () => {});

describe.skipIf(unavailable !== "")("two engines on one PostgreSQL database stay in step", () => {
  it("a scriptlet set through one server runs in the other's next placement", async () => {
    await b.config.set({
      "instances.placement.scriptlet":
        'def instance_placement(request, candidate_members):\n    if request.name == "foo":\n        return "Invalid name"\n    set_target("n2")\n',
    });
    const refused = await refusal(a.instances.create({ name: "foo", ...ONE_CPU }));
    expect(refused.message).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    );
    expect((await a.instances.create({ name: "bar", ...ONE_CPU })).instance.location).toBe("n2");
    // Cleared through the first server: the second places by the default policy again.
    await a.config.set({ "instances.placement.scriptlet": null });
    expect((await b.instances.create({ name: "baz", ...ONE_CPU })).instance.location).toBe("n1");
  });

  it("capacity freed through one server is free in the other at once; full is full in both", async () => {
    // n1 and n2 hold 2 VCPU each; bar and baz use one each.
    await b.instances.create({ name: "fill1", ...ONE_CPU });
    await b.instances.create({ name: "fill2", ...ONE_CPU });
    for (const engine of [a, b])
      expect((await refusal(engine.instances.create({ name: "over", ...ONE_CPU }))).kind).toBe(
        "insufficient_capacity",
      );
    await b.instances.delete("default", "fill1");
    expect((await a.instances.create({ name: "again", ...ONE_CPU })).instance.location).toBeDefined();
    expect((await stores[0]!.check()).violations).toEqual([]);
  });

  it("members and inventories changed through one server are used by the other", async () => {
    await b.members.create({ name: "n3", inventories: INVENTORIES });
    expect(
      (await a.instances.create({ name: "on-n3", ...ONE_CPU }, { target: "n3" })).instance.location,
    ).toBe("n3");
    const { generation } = a.members.inventories("n3");
    await a.members.setInventories("n3", { VCPU: { total: 8, allocation_ratio: 1 } }, generation);
    for (let i = 0; i < 7; i++) await b.instances.create({ name: `grown${i}`, ...ONE_CPU }, { target: "n3" });
    expect((await refusal(b.instances.create({ name: "too-many", ...ONE_CPU }, { target: "n3" }))).kind).toBe(
      "insufficient_capacity",
    );
    await b.instances.delete("default", "on-n3");
    for (let i = 0; i < 7; i++) await a.instances.delete("default", `grown${i}`);
    await b.members.delete("n3");
    // Woken by NOTIFY, or at the latest a second after its last read, the other server reads the feed.
    const deadline = Date.now() + 5_000;
    const names = () => a.members.list().map((member) => member.record.name);
    while (names().includes("n3") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await a.sync();
    }
    expect(names()).not.toContain("n3");
    expect((await refusal(a.instances.create({ name: "gone", ...ONE_CPU }, { target: "n3" }))).kind).toBe(
      "not_found",
    );
  });
});
