import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import type { MemberRecord, StoreSnapshot } from "@berth/engine";
import { afterAll, describe, expect, it } from "vitest";
import { instanceId, instanceSpec } from "./instance-spec.js";
import { seedMemoryEngine } from "./seed-memory.js";
import { generateSqliteCluster } from "./seed-sqlite.js";

const SHAPE = { members: 64, instances: 3_001 };
const dir = mkdtempSync(join(tmpdir(), "berth-bench-seed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The parts of a snapshot that do not depend on when or how the data was written. */
function comparable(snapshot: StoreSnapshot) {
  const member = ({ createdAt, lastHeartbeat, ...rest }: MemberRecord) => rest;
  const byKey = <T>(rows: T[], key: (row: T) => string) =>
    [...rows].sort((a, b) => key(a).localeCompare(key(b)));
  return {
    members: snapshot.members.map(member),
    projects: byKey(snapshot.projects, (p) => p.name),
    resourceClasses: byKey(snapshot.resourceClasses, (r) => r.name),
    usage: byKey(snapshot.usage, (u) => u.member),
    instanceCounts: byKey(snapshot.instanceCounts, (r) => `${r.member}/${r.project}`),
    projectUsage: byKey(snapshot.projectUsage, (r) => r.project),
  };
}

describe("generateSqliteCluster", () => {
  it("writes the same cluster the in-memory seeder builds, and check() is clean", async () => {
    const file = join(dir, "cluster.db");
    await generateSqliteCluster(file, SHAPE);
    const store = await openStore(file);
    try {
      const report = await store.check();
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);

      const memory = await seedMemoryEngine(SHAPE);
      expect(comparable(await store.snapshot())).toEqual(comparable(await memory.store.snapshot()));

      for (const n of [0, 1, 7, 63, 64, 127, 2_000, 3_000]) {
        const stored = await store.getInstanceById(instanceId(n));
        expect(stored).toEqual({ ...instanceSpec(n, SHAPE.members), revision: 1 });
      }
      const instances = await store.listInstances({});
      expect(instances).toHaveLength(SHAPE.instances);
    } finally {
      await store.close();
    }
  });
});
