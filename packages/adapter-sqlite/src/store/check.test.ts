import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { instanceOf, inventoryOf, memberOf } from "../testing/records.fixture.js";
import { makeTempDir } from "../testing/temp-dir.fixture.js";

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
});
