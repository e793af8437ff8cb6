/**
 * The Store contract for instances holding a class on a child provider of
 * their member's tree (rules/ledger/instance-consumers.ts): the row is
 * stored and read back with the instance, counted in the child's consumer
 * sums where Placement's consumers count, re-checked against them in the
 * claim's transaction (so neither kind of claim overcommits the child,
 * even concurrently), released on delete and moved on move. Part of
 * `runStoreContract`.
 */
import { describe, expect, it } from "vitest";
import type { EngineError } from "../../base/errors.js";
import { INSTANCE_CONSUMER_TYPE } from "../../rules/ledger/instance-consumers.js";
import { memberProviderUuid } from "../../rules/ledger/shared-ledger.js";
import type { ClaimFailureDetails, NewInstance, Store } from "../../store/port.js";
import type { AllocationRow, InstanceRecord, Ledger } from "../../store/records.js";
import { inventory, newInstance, newMember } from "../fixtures.js";
import { refusal } from "./contract-refusal.js";

const reasonOf = (error: EngineError) => (error.details as ClaimFailureDetails | undefined)?.reason;

const byProviderAndClass = (a: AllocationRow, b: AllocationRow) =>
  `${a.member}/${a.resourceClass}`.localeCompare(`${b.member}/${b.resourceClass}`);

const fpgaRow = (child: string, ledger: Ledger = "used"): AllocationRow => ({
  member: child,
  resourceClass: "CUSTOM_FPGA",
  ledger,
  amount: 1,
});

export function describeTreeClaims(store: () => Store): void {
  describe("instances on a member's child providers", () => {
    const stamp = "2026-01-01T00:00:00.000Z";

    /** Member `name` (VCPU 8), its root provider and a child with one CUSTOM_FPGA; answers the child's uuid. */
    async function memberWithFpga(name: string): Promise<string> {
      await store().createMember(newMember(name, { inventories: { VCPU: inventory(8) } }));
      const root = memberProviderUuid(name);
      await store().providers.create({
        uuid: root,
        name,
        parentUuid: null,
        rootUuid: root,
        generation: 0,
        inventories: {},
        traits: [],
        aggregates: [],
        createdAt: stamp,
        updatedAt: stamp,
      });
      const child = `${root.slice(0, -4)}f0a0`;
      await store().providers.create({
        uuid: child,
        name: `${name}-fpga0`,
        parentUuid: root,
        rootUuid: root,
        generation: 0,
        inventories: { CUSTOM_FPGA: inventory(1) },
        traits: [],
        aggregates: [],
        createdAt: stamp,
        updatedAt: stamp,
      });
      return child;
    }

    async function setUp(): Promise<string> {
      const existing = await store().resourceClasses.get({ name: "CUSTOM_FPGA" });
      if (existing === undefined) await store().resourceClasses.create({ name: "CUSTOM_FPGA", custom: true });
      return memberWithFpga("m1");
    }

    const withFpga = (name: string, member: string, child: string, forthcoming = false): NewInstance => {
      const record = newInstance(name, member, { VCPU: 1 }, { forthcoming });
      return {
        ...record,
        allocations: [...record.allocations, fpgaRow(child, record.allocations[0]!.ledger)],
      };
    };

    const placementClaim = (uuid: string, child: string) => ({
      record: {
        uuid,
        projectId: "proj",
        userId: "user",
        consumerType: null,
        allocations: [fpgaRow(child)],
      },
    });

    it("stores the child's row with the instance, counts it with the child's consumers, and frees it on delete", async () => {
      const child = await setUp();
      const cursor = store().feed === undefined ? undefined : (await store().snapshot()).feedCursor;
      const before = (await store().providers.get({ name: child }))!.generation;
      const { instances } = await store().claim({ create: [withFpga("a", "m1", child)] });
      const created = instances[0]!;
      // As Placement's own allocations do, the claim moves the child's generation.
      expect((await store().providers.get({ name: child }))?.generation).toBe(before + 1);
      const read = (await store().getInstanceById(created.id)) as InstanceRecord;
      expect([...read.allocations].sort(byProviderAndClass)).toEqual(
        [...created.allocations].sort(byProviderAndClass),
      );
      expect((await store().consumers.usage([child])).get(child)).toEqual({ CUSTOM_FPGA: 1 });
      expect((await store().snapshot()).consumerUsage).toContainEqual([child, "CUSTOM_FPGA", 1]);
      expect(await store().consumers.get(created.id)).toMatchObject({
        uuid: created.id,
        projectId: "default",
        consumerType: INSTANCE_CONSUMER_TYPE,
        allocations: [{ member: child, resourceClass: "CUSTOM_FPGA", amount: 1 }],
      });
      // The member's own usage holds only what is on the member.
      expect((await store().memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: 1 });
      if (store().feed !== undefined && cursor !== undefined) {
        const { entries } = await store().feed!.read(cursor);
        const claim = entries.find((entry) => entry.kind === "claim");
        expect(claim?.kind === "claim" && claim.effect.usage).toContainEqual([
          child,
          "CUSTOM_FPGA",
          "used",
          1,
        ]);
      }
      const second = await refusal(store().claim({ create: [withFpga("b", "m1", child)] }));
      expect(reasonOf(second)).toBe("capacity");
      expect(await refusal(store().consumers.claim([placementClaim("c1", child)]))).toMatchObject({
        kind: "insufficient_capacity",
      });
      // The child cannot go while the instance holds it, nor can a Placement write touch the instance's consumer.
      expect((await refusal(store().providers.delete({ name: child }))).kind).toBe("conflict");
      expect(
        reasonOfDetails(await refusal(store().consumers.claim([placementClaim(created.id, child)]))),
      ).toBe("instance_consumer");
      await store().claim({ remove: [{ id: created.id, expectedRevision: created.revision }] });
      expect((await store().consumers.usage([child])).get(child)).toEqual({});
      expect(await store().consumers.get(created.id)).toBeUndefined();
      await store().consumers.claim([placementClaim("c1", child)]);
      expect(reasonOf(await refusal(store().claim({ create: [withFpga("c", "m1", child)] })))).toBe(
        "capacity",
      );
      // An instance id is a consumer uuid: one a consumer holds is taken.
      const taken = { ...newInstance("d", "m1", { VCPU: 1 }), id: "c1" };
      expect(reasonOf(await refusal(store().claim({ create: [taken] })))).toBe("id_taken");
    });

    it("moves the child's row with the instance and keeps a reservation's ledger", async () => {
      const first = await setUp();
      const second = await memberWithFpga("m2");
      const { instances } = await store().claim({ create: [withFpga("r", "m1", first, true)] });
      const reserved = instances[0]!;
      expect((await store().getInstanceById(reserved.id))?.allocations).toContainEqual(
        fpgaRow(first, "forthcoming"),
      );
      const moved: NewInstance = {
        ...reserved,
        location: "m2",
        allocations: reserved.allocations.map((row) => ({
          ...row,
          member: row.member === "m1" ? "m2" : second,
        })),
      };
      const { instances: after } = await store().claim({
        replace: [{ record: moved, expectedRevision: reserved.revision }],
      });
      expect((await store().consumers.usage([first, second])).get(first)).toEqual({});
      expect((await store().consumers.usage([first, second])).get(second)).toEqual({ CUSTOM_FPGA: 1 });
      expect((await store().getInstanceById(reserved.id))?.allocations).toContainEqual(
        fpgaRow(second, "forthcoming"),
      );
      expect((await store().consumers.get(reserved.id))?.generation).toBe(after[0]!.revision);
      // A placement on the first child has room again.
      await store().claim({ create: [withFpga("s", "m1", first)] });
    });

    it("lets exactly one of concurrent instance and consumer claims have the last unit", async () => {
      const child = await setUp();
      const results = await Promise.allSettled([
        store().claim({ create: [withFpga("a", "m1", child)] }),
        store().consumers.claim([placementClaim("c1", child)]),
        store().claim({ create: [withFpga("b", "m1", child)] }),
        store().consumers.claim([placementClaim("c2", child)]),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      for (const result of results)
        if (result.status === "rejected")
          expect((result.reason as EngineError).kind).toBe("insufficient_capacity");
      expect((await store().consumers.usage([child])).get(child)).toEqual({ CUSTOM_FPGA: 1 });
    });
  });
}

function reasonOfDetails(error: EngineError): unknown {
  return (error.details as { reason?: unknown } | undefined)?.reason;
}
