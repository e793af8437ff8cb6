/**
 * The Store contract for two-member instances (a `secondary` holding a
 * mirror of the storage, Ganeti's DRBD): the secondary is persisted and
 * filtered on, its disk counts on both members, and N+1 (the secondary
 * keeps the memory to take over one failed primary's instances) is
 * checked against the store's own rows, so it holds across claims and
 * across processes. Part of `runStoreContract`.
 */
import { describe, expect, it } from "vitest";
import type { ClaimFailureDetails, Store } from "../../store/port.js";
import { inventory, mirroredInstance, newInstance, newMember } from "../fixtures.js";
import { refusal } from "./contract-refusal.js";

export function describeMirroredInstances(store: () => Store): void {
  describe("two-member instances (secondary)", () => {
    async function members(...names: string[]) {
      for (const name of names)
        await store().createMember(
          newMember(name, { inventories: { MEMORY_MB: inventory(8192), DISK_GB: inventory(100) } }),
        );
    }

    it("persists the secondary, lists by it, and counts the disk on both members", async () => {
      await members("a", "b", "c");
      const web = mirroredInstance("web", "a", "b", { MEMORY_MB: 1024, DISK_GB: 10 });
      const { instances, usage } = await store().claim({
        create: [web, newInstance("solo", "c", { DISK_GB: 1 })],
      });
      expect(instances[0]!.secondary).toBe("b");
      expect(instances[1]!.secondary).toBeUndefined();
      expect(usage.find((entry) => entry.member === "b")!.used).toEqual({ DISK_GB: 10 });
      expect((await store().getInstance("default", "web"))!.secondary).toBe("b");
      expect((await store().getInstance("default", "solo"))!.secondary).toBeUndefined();
      expect((await store().listInstances({ secondary: "b" })).map((i) => i.name)).toEqual(["web"]);
      expect(await store().listInstances({ location: "b" })).toEqual([]);
      const snapshot = await store().snapshot();
      expect(snapshot.usage.find((entry) => entry.member === "b")!.used).toEqual({ DISK_GB: 10 });
      expect(snapshot.usage.find((entry) => entry.member === "a")!.used).toEqual({
        MEMORY_MB: 1024,
        DISK_GB: 10,
      });
    });

    it("N+1 across claims: a secondary never takes on more than it could run if one primary failed", async () => {
      await members("a", "b", "c");
      // b runs 4 GiB; it mirrors 3 GiB for a; 2 GiB more from a would need 9 GiB of 8.
      await store().claim({ create: [newInstance("local", "b", { MEMORY_MB: 4096 })] });
      const first = mirroredInstance("one", "a", "b", { MEMORY_MB: 3072, DISK_GB: 1 });
      await store().claim({ create: [first] });
      const second = mirroredInstance("two", "a", "b", { MEMORY_MB: 2048, DISK_GB: 1 });
      const failure = await refusal(store().claim({ create: [second] }));
      expect(failure.kind).toBe("insufficient_capacity");
      expect(failure.details as ClaimFailureDetails).toEqual({
        reason: "failover",
        member: "b",
        primary: "a",
        requested: 5120,
        used: 4096,
        capacity: 8192,
      });
      // One failed primary at a time: c's instances need their own 3 GiB, not a's plus c's.
      await store().claim({ create: [mirroredInstance("three", "c", "b", { MEMORY_MB: 3072, DISK_GB: 1 })] });
      // Memory started on b itself eats the reserve too.
      const onB = await refusal(store().claim({ create: [newInstance("more", "b", { MEMORY_MB: 2048 })] }));
      expect((onB.details as ClaimFailureDetails).reason).toBe("failover");
      // Removing the first mirror frees its reserve.
      const stored = (await store().getInstance("default", "one"))!;
      await store().claim({ remove: [{ id: stored.id, expectedRevision: stored.revision }] });
      await store().claim({ create: [second] });
    });

    it("a failover (primary and secondary swapped) is one replace, and N+1 follows it", async () => {
      await members("a", "b");
      const web = mirroredInstance("web", "a", "b", { MEMORY_MB: 2048, DISK_GB: 5 });
      const [stored] = (await store().claim({ create: [web] })).instances;
      const swapped = mirroredInstance("web", "b", "a", { MEMORY_MB: 2048, DISK_GB: 5 }, { id: stored!.id });
      const { usage } = await store().claim({
        replace: [{ record: swapped, expectedRevision: stored!.revision }],
      });
      expect(usage).toEqual([
        { member: "a", used: { DISK_GB: 5 }, forthcoming: {} },
        { member: "b", used: { MEMORY_MB: 2048, DISK_GB: 5 }, forthcoming: {} },
      ]);
      const read = (await store().getInstance("default", "web"))!;
      expect([read.location, read.secondary]).toEqual(["b", "a"]);
      // a now keeps 2 GiB for b: 6 GiB more on a fits, 6 GiB + 1 MiB does not.
      const big = newInstance("big", "a", { MEMORY_MB: 6145 });
      expect(((await refusal(store().claim({ create: [big] }))).details as ClaimFailureDetails).reason).toBe(
        "failover",
      );
      await store().claim({ create: [newInstance("fits", "a", { MEMORY_MB: 6144 })] });
    });

    it("refuses to delete a member that still mirrors an instance", async () => {
      await members("a", "b");
      await store().claim({ create: [mirroredInstance("web", "a", "b", { MEMORY_MB: 1, DISK_GB: 1 })] });
      expect((await refusal(store().deleteMember("b"))).kind).toBe("conflict");
    });
  });
}
