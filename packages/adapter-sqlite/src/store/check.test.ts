import { memberProviderUuid } from "@berth/engine";
import type { Inventory } from "@berth/resources";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { instanceOf, inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

let counter = 0;
/** A small healthy store on a file, plus a way to damage it behind the store's back. */
async function healthyFile(): Promise<string> {
  const file = dir.file(`check-${++counter}.db`);
  const store = await openStore(file);
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(memberOf("a", { VCPU: inventoryOf(4), MEMORY_MB: inventoryOf(4096) }));
  await store.createMember(memberOf("b", { VCPU: inventoryOf(4) }));
  await store.claim({
    create: [
      instanceOf("i1", "a", { VCPU: 2, MEMORY_MB: 1024 }),
      instanceOf("i2", "b", { VCPU: 1 }),
      instanceOf("r1", "a", { VCPU: 1 }, { forthcoming: true }),
    ],
  });
  await store.close();
  return file;
}

async function damage(file: string, ...statements: string[]): Promise<void> {
  const client = createClient({ url: `file:${file}` });
  await client.execute("PRAGMA foreign_keys = OFF");
  for (const statement of statements) await client.execute(statement);
  client.close();
}

async function violationsOf(file: string) {
  const store = await openStore(file);
  try {
    return (await store.check()).violations;
  } finally {
    await store.close();
  }
}

describe("check()", () => {
  it("is clean on a store only the store has written, and counts what it checked", async () => {
    const store = await openStore(await healthyFile());
    const report = await store.check();
    expect(report).toEqual({
      ok: true,
      violations: [],
      counts: { members: 2, instances: 3, allocations: 4 },
    });
    await store.close();
  });

  it("stays clean when an operator shrinks an inventory below usage", async () => {
    const store = await openStore(await healthyFile());
    const a = (await store.getMember("a"))!;
    await store.setInventories("a", { VCPU: inventoryOf(1), MEMORY_MB: inventoryOf(4096) }, a.generation);
    expect((await store.check()).violations).toEqual([]);
    await store.close();
  });

  it("reports usage that does not match the allocations", async () => {
    const file = await healthyFile();
    await damage(file, "UPDATE usage SET amount = amount + 1 WHERE resource_class = 'MEMORY_MB'");
    const violations = await violationsOf(file);
    expect(violations.map((v) => v.kind)).toEqual(["usage_mismatch"]);
    expect(violations[0]?.message).toBe(
      'Usage of MEMORY_MB (used) on member "a" is 1025, but its allocations sum to 1024',
    );
  });

  it("reports usage over capacity that no inventory edit explains", async () => {
    const file = await healthyFile();
    await damage(file, "UPDATE inventories SET total = 2 WHERE resource_class = 'VCPU' AND member_id = 1");
    const violations = await violationsOf(file);
    expect(violations.map((v) => v.kind)).toEqual(["over_capacity"]);
    expect(violations[0]?.message).toBe('Member "a" has 3 VCPU in use, over its capacity 2');
  });

  it("reports usage of a class the member has no inventory of", async () => {
    const file = await healthyFile();
    await damage(file, "DELETE FROM inventories WHERE resource_class = 'MEMORY_MB'");
    expect((await violationsOf(file)).map((v) => v.kind)).toEqual(["usage_without_inventory"]);
  });

  it("reports project limit counters that disagree with the instances", async () => {
    const file = await healthyFile();
    await damage(file, "UPDATE project_usage SET instances = 7");
    const violations = await violationsOf(file);
    expect(violations.map((v) => v.kind)).toEqual(["project_usage_mismatch"]);
    expect(violations[0]?.message).toBe('Limit counters of project "default" disagree with its instances');
  });

  it("reports orphan rows", async () => {
    const file = await healthyFile();
    await damage(
      file,
      "INSERT INTO instance_profiles (instance_id, project, profile) VALUES ('no-such-instance', 'default', 'x')",
    );
    const violations = await violationsOf(file);
    expect(violations.map((v) => v.kind)).toEqual(["orphan_row"]);
    expect(violations[0]?.message).toMatch(/of instance_profiles refers to a missing row of instances/);
  });

  describe("Placement consumers", () => {
    /** The healthy file plus a Placement provider (VCPU 8) and consumers on it and on member a's root. */
    async function withConsumers(): Promise<string> {
      const file = await healthyFile();
      const store = await openStore(file);
      const root = memberProviderUuid("a");
      const provider = (uuid: string, name: string, inventories: Record<string, Inventory>) => ({
        uuid,
        name,
        parentUuid: null,
        rootUuid: uuid,
        generation: 0,
        inventories,
        traits: [],
        aggregates: [],
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      });
      await store.providers.create(provider(root, "a", {}));
      const vcpu8 = { total: 8, reserved: 0, minUnit: 1, maxUnit: 8, stepSize: 1, allocationRatio: 1 };
      await store.providers.create(provider("p1", "cn1", { VCPU: vcpu8 }));
      const consumer = (uuid: string, on: string, amount: number) => ({
        record: {
          uuid,
          projectId: "p",
          userId: "u",
          consumerType: null,
          allocations: [{ member: on, resourceClass: "VCPU", ledger: "used" as const, amount }],
        },
      });
      // Member a holds 3 VCPU of 4 through instances: one more fits through its root.
      await store.consumers.claim([consumer("c1", root, 1), consumer("c2", "p1", 8)]);
      expect((await store.check()).violations).toEqual([]);
      await store.close();
      return file;
    }

    it("reports a member's instances and its root's consumers over the member's capacity together", async () => {
      const file = await withConsumers();
      await damage(file, "UPDATE consumer_allocations SET amount = 2 WHERE consumer_uuid = 'c1'");
      const violations = await violationsOf(file);
      expect(violations.map((v) => v.kind)).toEqual(["over_capacity"]);
      expect(violations[0]?.message).toBe('Member "a" has 5 VCPU in use, over its capacity 4');
    });

    it("reports consumers over another provider's capacity, or on a provider that is gone", async () => {
      const file = await withConsumers();
      await damage(file, "UPDATE consumer_allocations SET amount = 9 WHERE consumer_uuid = 'c2'");
      expect((await violationsOf(file)).map((v) => v.message)).toEqual([
        'Placement consumers hold 9 VCPU on resource provider "p1", over its capacity 8',
      ]);
      await damage(file, "DELETE FROM providers WHERE uuid = 'p1'");
      expect((await violationsOf(file)).map((v) => v.kind)).toContain("orphan_row");
      expect((await violationsOf(file)).map((v) => v.message)).toContain(
        'Placement consumers hold 9 VCPU on resource provider "p1", which does not exist',
      );
    });
  });
});
