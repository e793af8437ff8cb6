import { EngineError } from "@berth/engine";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { instanceOf, inventoryOf, memberOf } from "../../test-support/records.fixture.js";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

async function storeWithOneMember(file: string, vcpus: number) {
  const store = await openStore(dir.file(file));
  await store.projects.create({ name: "default", description: "", config: {} });
  await store.createMember(memberOf("a", { VCPU: inventoryOf(vcpus) }));
  return store;
}

describe("group commit of concurrent claims", () => {
  it("re-checks each claim of a batch after the ones before it; each fails on its own", async () => {
    const store = await storeWithOneMember("batch.db", 5);
    // Submitted together, so they share write transactions.
    const claims = Array.from({ length: 12 }, (_, i) =>
      store.claim({ create: [instanceOf(`i${i}`, "a", { VCPU: 1 })] }),
    );
    claims.push(store.claim({ create: [instanceOf("i0", "a", { VCPU: 1 })] }));
    const settled = await Promise.allSettled(claims);
    const landed = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    expect(landed).toHaveLength(5);
    // Each success saw the usage left by the claims before it.
    expect(landed.map((r) => r.usage[0]?.used.VCPU).sort()).toEqual([1, 2, 3, 4, 5]);
    const reasons = settled.flatMap((s) =>
      s.status === "rejected" ? [((s.reason as EngineError).details as { reason: string }).reason] : [],
    );
    expect(reasons.filter((r) => r === "capacity")).toHaveLength(7);
    expect(reasons.filter((r) => r === "name_taken")).toHaveLength(1);
    for (const s of settled) if (s.status === "rejected") expect(s.reason).toBeInstanceOf(EngineError);
    const report = await store.check();
    expect(report.ok).toBe(true);
    expect(report.counts.instances).toBe(5);
    await store.close();
  });

  it("gives every claim of a batch the failure when the write lock is not obtained, writing none", async () => {
    const file = dir.file("busy.db");
    const store = await openStore(file, { busyTimeoutMs: 100 });
    await store.projects.create({ name: "default", description: "", config: {} });
    await store.createMember(memberOf("a", { VCPU: inventoryOf(8) }));
    const other = createClient({ url: `file:${file}` });
    const holder = await other.transaction("write");
    let settled: PromiseSettledResult<unknown>[];
    try {
      settled = await Promise.allSettled([
        store.claim({ create: [instanceOf("x", "a", { VCPU: 1 })] }),
        store.claim({ create: [instanceOf("y", "a", { VCPU: 1 })] }),
      ]);
    } finally {
      await holder.rollback();
      other.close();
    }
    for (const outcome of settled) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        kind: "unavailable",
        details: { reason: "busy", retryAfterSeconds: 1 },
      });
    }
    expect((await store.check()).counts.instances).toBe(0);
    // The store recovers: the next claim lands.
    await store.claim({ create: [instanceOf("z", "a", { VCPU: 1 })] });
    expect((await store.check()).counts.instances).toBe(1);
    await store.close();
  });
});
