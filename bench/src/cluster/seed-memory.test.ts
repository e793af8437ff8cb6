import { describe, expect, it } from "vitest";
import { INSTANCE_SIZES, PROJECTS } from "./catalog.js";
import { instanceSpec } from "./instance-spec.js";
import { seedMemoryEngine } from "./seed-memory.js";

describe("seedMemoryEngine", () => {
  it("fits 100 instances on every member when the member count is a multiple of ten (the benchmarks' density)", async () => {
    const shape = { members: 20, instances: 2_000 };
    const engine = await seedMemoryEngine(shape);
    const counts = (await engine.store.snapshot()).instanceCounts;
    const perMember = new Map<string, number>();
    for (const row of counts) perMember.set(row.member, (perMember.get(row.member) ?? 0) + row.instances);
    expect([...perMember.values()]).toEqual(Array(20).fill(100));
    // Every member gets a mix of sizes and projects, not one of each.
    const onFirst = Array.from({ length: 100 }, (_, k) => instanceSpec(k * shape.members, shape.members));
    expect(new Set(onFirst.map((i) => i.limitsUsage.memoryBytes)).size).toBeGreaterThan(3);
    expect(new Set(onFirst.map((i) => i.project)).size).toBe(PROJECTS.length);
    expect(INSTANCE_SIZES.length).toBe(10);
  });

  it("hydrates an engine that places on the generated members", async () => {
    const engine = await seedMemoryEngine({ members: 10, instances: 100 });
    const { instance } = await engine.instances.create({ name: "probe", config: { "limits.cpu": "1" } });
    expect(instance.location).toMatch(/^member-000\d\d$/);
  });
});
