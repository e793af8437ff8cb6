import { EngineError } from "@berth/engine";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { finished, lineSeen, spawnScript } from "../test-support/child-process.fixture.js";
import { instanceOf, inventoryOf, memberOf } from "../test-support/records.fixture.js";
import { makeTempDir } from "../test-support/temp-dir.fixture.js";
import { MIGRATIONS_FOLDER } from "./migrations/apply-migrations.js";
import { openStore } from "./open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

describe("two processes claiming on one file", () => {
  it("never overcommit: together they fill capacity exactly and check() stays clean", async () => {
    const file = dir.file("race.db");
    const members = ["m1", "m2", "m3", "m4"];
    const perMember = 80;
    const setup = await openStore(file);
    await setup.projects.create({ name: "default", description: "", config: {} });
    for (const name of members) await setup.createMember(memberOf(name, { VCPU: inventoryOf(perMember) }));
    await setup.close();

    const children = [
      spawnScript("./claim-racer.fixture.ts", [file, "w1", members.join(","), "3"]),
      spawnScript("./claim-racer.fixture.ts", [file, "w2", members.join(","), "1"]),
    ];
    const done = children.map(finished);
    await Promise.all(children.map((child) => lineSeen(child, "ready")));
    for (const child of children) child.stdin?.end("go\n");
    const results = await Promise.all(done);
    const reports = results.map((result) => {
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      return JSON.parse(result.lines.at(-1)!) as { worker: string; created: number; refused: number };
    });

    // Both really competed: each placed some and each was refused at least once.
    for (const report of reports) {
      expect(report.created).toBeGreaterThan(0);
      expect(report.refused).toBeGreaterThan(0);
    }
    const total = reports.reduce((sum, r) => sum + r.created, 0);
    expect(total).toBe(members.length * perMember);

    const store = await openStore(file);
    try {
      const usage = await store.memberUsage(members);
      expect(usage.map((u) => u.used.VCPU)).toEqual(members.map(() => perMember));
      expect((await store.listInstances()).length).toBe(total);
      const report = await store.check();
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await store.close();
    }
  }, 240_000);
});

describe("two stores on one file in one process", () => {
  it("take turns instead of stalling on each other's lock, from the first open on", async () => {
    const file = dir.file("same-process.db");
    // With busy_timeout 0 any moment where one store found the other's write
    // lock held fails at once with a busy error instead of waiting, so the
    // outcomes below prove the two took turns without timing anything.
    const [a, b] = await Promise.all([
      openStore(file, { busyTimeoutMs: 0 }),
      openStore(file, { busyTimeoutMs: 0 }),
    ]);
    try {
      const shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
      expect([a.migrations.applied.length, b.migrations.applied.length].sort()).toEqual([0, shipped]);
      // A change made through one store is in the other's change feed at once.
      const cursor = (await b.snapshot()).feedCursor!;
      await a.projects.create({ name: "default", description: "", config: {} });
      expect((await b.feed.read(cursor)).entries).toEqual([{ kind: "catalog", table: "projects" }]);
      await b.createMember(memberOf("m", { VCPU: inventoryOf(30) }));
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? a : b).claim({ create: [instanceOf(`c${i}`, "m", { VCPU: 1 })] }).then(
            () => "ok",
            (error: unknown) => (error instanceof EngineError ? `${error.kind}` : Promise.reject(error)),
          ),
        ),
      );
      expect(outcomes.filter((o) => o === "ok").length).toBe(30);
      expect(outcomes.filter((o) => o !== "ok")).toEqual(Array(10).fill("insufficient_capacity"));
      expect((await b.check()).violations).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
