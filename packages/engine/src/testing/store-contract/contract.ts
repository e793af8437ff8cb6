/**
 * The Store contract suite: every Store implementation runs it against
 * itself (`runStoreContract("sqlite", () => makeSqliteStore())`). It pins the
 * semantics the engine relies on: atomic all-or-nothing claims, capacity
 * re-checked against the store's own usage, generations and revisions,
 * in-use refusals, and aggregate snapshots.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EngineError } from "../../base/errors.js";
import { memberRootRow, rootGeneration } from "../../rules/ledger/member-root.js";
import { memberProviderUuid } from "../../rules/ledger/shared-ledger.js";
import type { ChangeEntry } from "../../store/change-feed.js";
import type { ClaimFailureDetails, Store } from "../../store/port.js";
import { isRecordChanged } from "../../store/record-version.js";
import type { InventoryRecord, ProviderRecord } from "../../store/records.js";
import { allocationsOf, inventory, newInstance, newMember, sampleDecision } from "../fixtures.js";
import { describeGroupMembers } from "./contract-groups.js";
import { describeMirroredInstances } from "./contract-mirrors.js";
import { describeProviderTraits } from "./contract-traits.js";
import { describeTreeClaims } from "./contract-tree.js";

async function expectEngineError(promise: Promise<unknown>, kind: EngineError["kind"]): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).kind).toBe(kind);
    return error as EngineError;
  }
  throw new Error(`expected an EngineError of kind ${kind}, but the call succeeded`);
}

/** An inventory as Placement sets it (without where it came from). */
function placed(total: number): Omit<InventoryRecord, "source"> {
  const { source: _source, ...rest } = inventory(total);
  return rest;
}

function reasonOf(error: EngineError): ClaimFailureDetails["reason"] | undefined {
  return (error.details as ClaimFailureDetails | undefined)?.reason;
}

/**
 * Registers the Store contract suite (vitest) for a Store implementation: `makeStore` answers a
 * fresh, empty store for each test.
 */
export function runStoreContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await makeStore();
      await store.projects.create({ name: "default", description: "", config: {} });
    });
    afterEach(async () => {
      await store.close();
    });

    async function addMember(
      memberName: string,
      inventories: Record<string, InventoryRecord> = { VCPU: inventory(8), MEMORY_MB: inventory(8192) },
    ) {
      return store.createMember(newMember(memberName, { inventories }));
    }

    describe("members", () => {
      it("creates members with increasing join order and generation 0-or-more", async () => {
        const a = await addMember("a");
        const b = await addMember("b");
        expect(b.joinOrder).toBeGreaterThan(a.joinOrder);
        expect(a.inventories.VCPU?.total).toBe(8);
        expect((await store.listMembers()).map((m) => m.name)).toEqual(["a", "b"]);
      });

      it("refuses a duplicate member name", async () => {
        await addMember("a");
        await expectEngineError(addMember("a"), "conflict");
      });

      it("refuses a member in an unknown group", async () => {
        await expectEngineError(store.createMember(newMember("a", { groups: ["nope"] })), "not_found");
      });

      it("updates fields; heartbeats do not bump the generation, traits do", async () => {
        const a = await addMember("a");
        const beat = await store.updateMember("a", { lastHeartbeat: "2026-01-01T00:00:01.000Z" });
        expect(beat.generation).toBe(a.generation);
        expect(beat.lastHeartbeat).toBe("2026-01-01T00:00:01.000Z");
        const traits = await store.updateMember("a", { traits: ["CUSTOM_FPGA"] }, a.generation);
        expect(traits.generation).toBeGreaterThan(a.generation);
        await expectEngineError(store.updateMember("a", { traits: [] }, a.generation), "conflict");
        await expectEngineError(store.updateMember("zz", { description: "x" }), "not_found");
      });

      it("setInventories checks the generation and bumps it", async () => {
        const a = await addMember("a");
        const next = await store.setInventories("a", { VCPU: inventory(16) }, a.generation);
        expect(next.generation).toBeGreaterThan(a.generation);
        expect(next.inventories).toEqual({ VCPU: inventory(16) });
        const error = await expectEngineError(
          store.setInventories("a", { VCPU: inventory(4) }, a.generation),
          "conflict",
        );
        expect(error.message).toMatch(/generation/i);
      });

      it("setInventories refuses to remove a class that has allocations, but allows shrinking", async () => {
        const a = await addMember("a");
        await store.claim({ create: [newInstance("i1", "a", { VCPU: 4, MEMORY_MB: 1024 })] });
        const current = (await store.getMember("a"))!;
        await expectEngineError(
          store.setInventories("a", { VCPU: inventory(8) }, current.generation),
          "conflict",
        );
        const shrunk = await store.setInventories(
          "a",
          { VCPU: inventory(2), MEMORY_MB: inventory(512) },
          current.generation,
        );
        expect(shrunk.inventories.VCPU?.total).toBe(2);
        expect(a.name).toBe("a");
      });

      it("setInventories refuses unknown custom classes", async () => {
        const a = await addMember("a");
        await expectEngineError(
          store.setInventories("a", { CUSTOM_GOLD: inventory(1) }, a.generation),
          "not_found",
        );
        await store.resourceClasses.create({ name: "CUSTOM_GOLD", custom: true });
        const next = await store.setInventories("a", { CUSTOM_GOLD: inventory(1) }, a.generation);
        expect(next.inventories.CUSTOM_GOLD?.total).toBe(1);
      });

      it("a claim sets member states with its moves, all or nothing", async () => {
        await addMember("a");
        await addMember("b");
        const [placed] = (await store.claim({ create: [newInstance("i1", "a", { VCPU: 1 })] })).instances;
        const cursor = (await store.snapshot()).feedCursor;
        const moved = {
          ...placed!,
          location: "b",
          origin: "a",
          allocations: placed!.allocations.map((row) => ({ ...row, member: "b" })),
        };
        const { revision, ...record } = moved;
        // A refused claim (member gone) leaves both the member and the instance as they were.
        await expectEngineError(
          store.claim({
            replace: [{ record, expectedRevision: revision }],
            memberStates: [
              { member: "a", evacuated: true },
              { member: "gone", evacuated: true },
            ],
          }),
          "conflict",
        );
        expect((await store.getMember("a"))!.evacuated).toBe(false);
        expect((await store.getInstanceById(placed!.id))!.location).toBe("a");
        await store.claim({
          replace: [{ record, expectedRevision: revision }],
          memberStates: [{ member: "a", evacuated: true }],
        });
        expect((await store.getMember("a"))!.evacuated).toBe(true);
        expect((await store.getInstanceById(placed!.id))!.location).toBe("b");
        // Other engines sharing the store re-read the member when the feed announces it.
        if (store.feed !== undefined && cursor !== undefined) {
          const { entries } = await store.feed.read(cursor);
          expect(entries).toContainEqual(
            expect.objectContaining({ kind: "member", name: "a", change: "updated" }),
          );
        }
      });

      it("refuses deleting a member that hosts instances or reservations", async () => {
        await addMember("a");
        await addMember("b");
        await store.claim({ create: [newInstance("r1", "a", {}, { forthcoming: true })] });
        await expectEngineError(store.deleteMember("a"), "conflict");
        await store.deleteMember("b");
        expect(await store.getMember("b")).toBeUndefined();
        await expectEngineError(store.deleteMember("b"), "not_found");
      });
    });

    describe("catalog", () => {
      it("groups: CRUD, in use while members belong to them", async () => {
        await store.groups.create({ name: "gpu", description: "GPU hosts" });
        await expectEngineError(store.groups.create({ name: "gpu", description: "" }), "conflict");
        await store.createMember(newMember("a", { groups: ["gpu"] }));
        await expectEngineError(store.groups.delete({ name: "gpu" }), "conflict");
        await store.updateMember("a", { groups: [] });
        await store.groups.update({ name: "gpu", description: "changed" });
        expect((await store.groups.get({ name: "gpu" }))?.description).toBe("changed");
        await store.groups.delete({ name: "gpu" });
        expect(await store.groups.list()).toEqual([]);
        await expectEngineError(store.groups.update({ name: "gpu", description: "" }), "not_found");
      });

      it("projects: in use while they hold instances or profiles", async () => {
        await store.projects.create({ name: "p", description: "", config: { "limits.instances": "3" } });
        await store.profiles.create({ project: "p", name: "web", description: "", config: {}, devices: {} });
        await expectEngineError(store.projects.delete({ name: "p" }), "conflict");
        await store.profiles.delete({ project: "p", name: "web" });
        await addMember("a");
        const created = await store.claim({ create: [newInstance("i", "a", {}, { project: "p" })] });
        await expectEngineError(store.projects.delete({ name: "p" }), "conflict");
        await store.claim({ remove: [{ id: created.instances[0]!.id }] });
        await store.projects.delete({ name: "p" });
        expect((await store.projects.list()).map((p) => p.name)).toEqual(["default"]);
      });

      it("profiles are project-scoped and in use while instances reference them", async () => {
        await store.projects.create({ name: "p", description: "", config: {} });
        await store.profiles.create({
          project: "default",
          name: "web",
          description: "",
          config: {},
          devices: {},
        });
        await store.profiles.create({
          project: "p",
          name: "web",
          description: "",
          config: { "limits.cpu": "2" },
          devices: {},
        });
        expect((await store.profiles.list({ project: "p" })).length).toBe(1);
        expect((await store.profiles.get({ project: "p", name: "web" }))?.config).toEqual({
          "limits.cpu": "2",
        });
        await expectEngineError(
          store.profiles.create({ project: "nope", name: "x", description: "", config: {}, devices: {} }),
          "not_found",
        );
        await addMember("a");
        await store.claim({ create: [newInstance("i", "a", {}, { profiles: ["web"] })] });
        await expectEngineError(store.profiles.delete({ project: "default", name: "web" }), "conflict");
        await store.profiles.delete({ project: "p", name: "web" });
      });

      it("flavors and images round-trip", async () => {
        const flavor = {
          name: "m1.small",
          description: "",
          vcpus: 1,
          memoryMb: 2048,
          diskGb: 20,
          extraSpecs: { "trait:HW_CPU_X86_AVX2": "required" },
        };
        await store.flavors.create(flavor);
        expect(await store.flavors.get({ name: "m1.small" })).toEqual(flavor);
        const image = {
          fingerprint: "abc",
          description: "",
          architecture: "aarch64",
          type: "container",
          aliases: ["ubuntu/24.04"],
          properties: {},
        };
        await store.images.create(image);
        expect(await store.images.get({ name: "abc" })).toEqual(image);
        await store.images.delete({ name: "abc" });
        await store.flavors.delete({ name: "m1.small" });
        expect(await store.images.list()).toEqual([]);
      });

      it("a conditional update writes only over the version the caller read", async () => {
        const read = await store.profiles.create({
          project: "default",
          name: "web",
          description: "",
          config: { "limits.cpu": "1" },
          devices: { eth0: { type: "nic", network: "br0" } },
        });
        // Another writer changes the row after `read` was taken.
        const other = await store.profiles.update({ ...read, config: { "limits.cpu": "2" } }, read);
        const refused = await expectEngineError(
          store.profiles.update({ ...read, description: "lost update" }, read),
          "conflict",
        );
        expect(isRecordChanged(refused)).toBe(true);
        expect(await store.profiles.get({ project: "default", name: "web" })).toEqual(other);
        // The version is the content, whatever order its keys come in.
        const reordered = { devices: other.devices, config: other.config, description: "", name: "web" };
        const next = await store.profiles.update(
          { ...other, description: "kept" },
          { ...reordered, project: "default" },
        );
        expect(next.description).toBe("kept");
        await expectEngineError(
          store.profiles.update({ ...read, name: "nope" }, { ...read, name: "nope" }),
          "not_found",
        );
      });

      it("placement groups are in use while instances belong to them", async () => {
        await store.placementGroups.create({
          project: "default",
          name: "db",
          description: "",
          policy: "spread",
          rigor: "strict",
          config: { topology: "rack", "user.team": "web" },
        });
        // The other config keys round-trip (placement groups over a topology key read them back).
        expect((await store.placementGroups.get({ project: "default", name: "db" }))?.config).toEqual({
          topology: "rack",
          "user.team": "web",
        });
        await addMember("a");
        await store.claim({ create: [newInstance("i", "a", {}, { placementGroup: "db" })] });
        await expectEngineError(store.placementGroups.delete({ project: "default", name: "db" }), "conflict");
        const snapshot = await store.snapshot();
        expect(snapshot.placementGroupCounts).toEqual([
          { project: "default", group: "db", member: "a", instances: 1 },
        ]);
      });

      it("custom resource classes are in use while an inventory has them", async () => {
        await store.resourceClasses.create({ name: "CUSTOM_FPGA", custom: true });
        await expectEngineError(
          store.resourceClasses.create({ name: "CUSTOM_FPGA", custom: true }),
          "conflict",
        );
        await store.createMember(newMember("a", { inventories: { CUSTOM_FPGA: inventory(2) } }));
        await expectEngineError(store.resourceClasses.delete({ name: "CUSTOM_FPGA" }), "conflict");
        const a = (await store.getMember("a"))!;
        await store.setInventories("a", {}, a.generation);
        await store.resourceClasses.delete({ name: "CUSTOM_FPGA" });
        expect(await store.resourceClasses.list()).toEqual([]);
      });
    });

    describe("placement providers and traits", () => {
      const provider = (uuid: string, name: string, parentUuid: string | null = null): ProviderRecord => ({
        uuid,
        name,
        parentUuid,
        rootUuid: parentUuid ?? uuid,
        generation: 0,
        inventories: {},
        traits: [],
        aggregates: [],
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      });

      it("keeps providers by uuid with unique names and existing parents", async () => {
        await store.providers.create(provider("p1", "root"));
        await expectEngineError(store.providers.create(provider("p1", "other")), "conflict");
        const taken = await expectEngineError(store.providers.create(provider("p2", "root")), "conflict");
        expect(taken.details).toEqual({ reason: "name_taken" });
        await expectEngineError(store.providers.create(provider("p3", "orphan", "missing")), "not_found");
        await store.providers.create(provider("p2", "child", "p1"));
        expect((await store.providers.get({ name: "p2" }))?.rootUuid).toBe("p1");
        expect((await store.providers.list()).map((p) => p.uuid).sort()).toEqual(["p1", "p2"]);
      });

      it("refuses to delete a parent and writes conditionally on the version read", async () => {
        await store.providers.create(provider("p1", "root"));
        await store.providers.create(provider("p2", "child", "p1"));
        await expectEngineError(store.providers.delete({ name: "p1" }), "conflict");
        const read = (await store.providers.get({ name: "p2" }))!;
        await store.providers.update({ ...read, generation: 1 }, read);
        const lost = await expectEngineError(
          store.providers.update({ ...read, generation: 1 }, read),
          "conflict",
        );
        expect(isRecordChanged(lost)).toBe(true);
        await store.providers.delete({ name: "p2" });
        await store.providers.delete({ name: "p1" });
        expect(await store.providers.list()).toEqual([]);
      });

      it("claims consumers all-or-nothing with generations and capacity, and keeps used providers", async () => {
        const root = await store.providers.create({
          ...provider("p1", "root"),
          inventories: { VCPU: inventory(4) },
        });
        const write = (uuid: string, amount: number, expectedGeneration?: number | null) => ({
          record: {
            uuid,
            projectId: "proj",
            userId: "user",
            consumerType: "INSTANCE",
            allocations:
              amount === 0 ? [] : [{ member: "p1", resourceClass: "VCPU", ledger: "used" as const, amount }],
          },
          ...(expectedGeneration !== undefined ? { expectedGeneration } : {}),
        });
        const [first] = await store.consumers.claim([write("c1", 3, null)]);
        expect(first?.generation).toBe(1);
        expect((await store.providers.get({ name: "p1" }))?.generation).toBe(root.generation + 1);
        // Over capacity as a whole: neither consumer is written.
        const over = await expectEngineError(
          store.consumers.claim([write("c2", 1), write("c3", 1)]),
          "insufficient_capacity",
        );
        expect(reasonOf(over)).toBe("capacity");
        expect(await store.consumers.get("c2")).toBeUndefined();
        const stale = await expectEngineError(store.consumers.claim([write("c1", 2, 0)]), "conflict");
        expect(stale.details).toMatchObject({ reason: "consumer_generation" });
        expect((await store.consumers.usage(["p1"])).get("p1")).toEqual({ VCPU: 3 });
        await expectEngineError(store.providers.delete({ name: "p1" }), "conflict");
        const read = (await store.providers.get({ name: "p1" }))!;
        await expectEngineError(store.providers.update({ ...read, inventories: {} }, read), "conflict");
        await store.consumers.claim([write("c1", 0)]);
        expect(await store.consumers.get("c1")).toBeUndefined();
        expect((await store.consumers.usage(["p1"])).get("p1")).toEqual({});
        await store.providers.delete({ name: "p1" });
      });

      it("reshapes inventories and the allocations on them together, all or nothing", async () => {
        const cn = await store.providers.create({
          ...provider("cn", "cn"),
          inventories: { VCPU: inventory(8) },
        });
        const numa = await store.providers.create(provider("numa", "numa", "cn"));
        const vcpu = (member: string, amount: number) => [
          { member, resourceClass: "VCPU", ledger: "used" as const, amount },
        ];
        const consumer = (member: string, amount: number, expectedGeneration?: number) => ({
          record: {
            uuid: "c1",
            projectId: "proj",
            userId: "user",
            consumerType: null,
            allocations: vcpu(member, amount),
          },
          ...(expectedGeneration !== undefined ? { expectedGeneration } : {}),
        });
        await store.consumers.claim([consumer("cn", 6)]);
        const moved = (cnGeneration: number, numaTotal: number) => ({
          inventories: [
            {
              provider: "cn",
              expectedGeneration: cnGeneration,
              inventories: {} as Record<string, InventoryRecord>,
            },
            {
              provider: "numa",
              expectedGeneration: numa.generation,
              inventories: { VCPU: inventory(numaTotal) },
            },
          ],
          writes: [consumer("numa", 6, 1)],
        });
        // A stale generation, then a target too small: nothing changes.
        const stale = await expectEngineError(store.consumers.reshape(moved(cn.generation, 8)), "conflict");
        expect(stale.details).toMatchObject({ reason: "generation" });
        const small = await expectEngineError(
          store.consumers.reshape(moved(cn.generation + 1, 4)),
          "insufficient_capacity",
        );
        expect(reasonOf(small)).toBe("capacity");
        expect((await store.consumers.usage(["cn"])).get("cn")).toEqual({ VCPU: 6 });
        expect((await store.providers.get({ name: "numa" }))?.inventories).toEqual({});
        // Removing the class while allocations stay on it is refused.
        const kept = {
          inventories: [
            {
              provider: "cn",
              expectedGeneration: cn.generation + 1,
              inventories: { DISK_GB: inventory(10) },
            },
          ],
          writes: [],
        };
        const inUse = await expectEngineError(store.consumers.reshape(kept), "conflict");
        expect(inUse.details).toMatchObject({ reason: "inventory_in_use" });
        // The move: VCPU and its allocation go to the child in one step.
        const [stored] = await store.consumers.reshape(moved(cn.generation + 1, 8));
        expect(stored?.generation).toBe(2);
        expect((await store.consumers.usage(["cn", "numa"])).get("numa")).toEqual({ VCPU: 6 });
        expect((await store.consumers.usage(["cn"])).get("cn")).toEqual({});
        const cnAfter = await store.providers.get({ name: "cn" });
        const numaAfter = await store.providers.get({ name: "numa" });
        expect(cnAfter?.inventories).toEqual({});
        expect(numaAfter?.inventories.VCPU?.total).toBe(8);
        // cn: only its final inventory; numa: interim inventory, allocations, final inventory.
        expect(cnAfter?.generation).toBe(cn.generation + 2);
        expect(numaAfter?.generation).toBe(numa.generation + 3);
      });

      it("keeps a class or trait in use while a provider has it", async () => {
        await store.resourceClasses.create({ name: "CUSTOM_FPGA", custom: true });
        await store.traits.create({ name: "CUSTOM_FAST", createdAt: "2026-01-01T00:00:00.000Z" });
        const root = await store.providers.create({
          ...provider("p1", "root"),
          inventories: { CUSTOM_FPGA: inventory(2) },
          traits: ["CUSTOM_FAST"],
        });
        await expectEngineError(store.resourceClasses.delete({ name: "CUSTOM_FPGA" }), "conflict");
        await expectEngineError(store.traits.delete({ name: "CUSTOM_FAST" }), "conflict");
        await store.providers.update({ ...root, inventories: {}, traits: [] }, root);
        await store.resourceClasses.delete({ name: "CUSTOM_FPGA" });
        await store.traits.delete({ name: "CUSTOM_FAST" });
        expect(await store.traits.list()).toEqual([]);
      });
      it("keeps a trait in use while a member has it, judged in the delete's transaction", async () => {
        const trait = { name: "CUSTOM_GOLD", createdAt: "2026-01-01T00:00:00.000Z" };
        await store.traits.create(trait);
        await store.createMember(newMember("m1", { traits: ["CUSTOM_GOLD"] }));
        const refused = await expectEngineError(store.traits.delete({ name: "CUSTOM_GOLD" }), "conflict");
        expect(refused.message).toContain('member "m1" has it');
        await store.updateMember("m1", { traits: [] });
        // A member write racing the delete: whichever commits first, the delete never
        // succeeds after a member took the trait (the one-sided check of the engine's model did).
        for (let round = 0; round < 12; round++) {
          const committed: string[] = [];
          const [deleted, taken] = await Promise.allSettled([
            store.traits.delete({ name: "CUSTOM_GOLD" }).then(() => committed.push("delete")),
            store.updateMember("m1", { traits: ["CUSTOM_GOLD"] }).then(() => committed.push("member")),
          ]);
          expect(taken.status).toBe("fulfilled");
          if (deleted.status === "fulfilled") expect(committed).toEqual(["delete", "member"]);
          else expect((deleted.reason as EngineError).kind).toBe("conflict");
          await store.updateMember("m1", { traits: [] });
          if (deleted.status === "fulfilled") await store.traits.create(trait);
        }
      });
    });

    describe("one ledger: a member's root provider", () => {
      const consumerOn = (uuid: string, provider: string, vcpu: number) => ({
        record: {
          uuid,
          projectId: "proj",
          userId: "user",
          consumerType: "INSTANCE",
          allocations:
            vcpu === 0
              ? []
              : [{ member: provider, resourceClass: "VCPU", ledger: "used" as const, amount: vcpu }],
        },
      });
      const rootOf = (name: string): ProviderRecord => memberRootRow(name, "2026-01-01T00:00:00.000Z");

      it("refuses an instance the root's consumers leave no room for, and the reverse", async () => {
        await store.createMember(newMember("m1", { inventories: { VCPU: inventory(4) } }));
        const root = await store.providers.create(rootOf("m1"));
        // The root's own (empty) inventories do not count: the member's do.
        await store.consumers.claim([consumerOn("c1", root.uuid, 3)]);
        const refused = await expectEngineError(
          store.claim({ create: [newInstance("big", "m1", { VCPU: 2 })] }),
          "insufficient_capacity",
        );
        expect(reasonOf(refused)).toBe("capacity");
        const placed = await store.claim({ create: [newInstance("small", "m1", { VCPU: 1 })] });
        // The usage the engine's model is told counts both.
        expect(placed.usage.find((u) => u.member === "m1")?.used).toEqual({ VCPU: 4 });
        expect((await store.memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: 4 });
        expect((await store.snapshot()).usage.find((u) => u.member === "m1")?.used).toEqual({ VCPU: 4 });
        expect((await store.snapshot()).consumerUsage).toEqual([[root.uuid, "VCPU", 3]]);
        const over = await expectEngineError(
          store.consumers.claim([consumerOn("c2", root.uuid, 1)]),
          "insufficient_capacity",
        );
        expect(reasonOf(over)).toBe("capacity");
        await store.consumers.claim([consumerOn("c1", root.uuid, 0)]);
        await store.consumers.claim([consumerOn("c2", root.uuid, 3)]);
        expect((await store.memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: 4 });
      });

      it("reshapes a member's root against the member's ledger and announces it like a consumer claim", async () => {
        await store.createMember(newMember("m1", { inventories: { VCPU: inventory(4) } }));
        // The root's row keeps a copy of the member's inventories (as the engine writes it).
        const root = await store.providers.create({ ...rootOf("m1"), inventories: { VCPU: inventory(4) } });
        const member = await store.claim({ create: [newInstance("i1", "m1", { VCPU: 3 })] });
        expect(member.instances).toHaveLength(1);
        const generation = rootGeneration((await store.getMember("m1"))!.generation, root.generation);
        const cursor = store.feed === undefined ? undefined : (await store.snapshot()).feedCursor;
        const reshapeOf = (vcpu: number) => ({
          inventories: [
            { provider: root.uuid, expectedGeneration: generation, inventories: { VCPU: inventory(4) } },
          ],
          writes: [consumerOn("c1", root.uuid, vcpu)],
        });
        // The member's instance holds 3 of 4: a consumer of 2 would overcommit the member.
        const over = await expectEngineError(store.consumers.reshape(reshapeOf(2)), "insufficient_capacity");
        expect(reasonOf(over)).toBe("capacity");
        expect(await store.consumers.get("c1")).toBeUndefined();
        await store.consumers.reshape(reshapeOf(1));
        expect((await store.memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: 4 });
        // Other engines sharing the store learn the consumer's usage on the member from the feed.
        if (store.feed !== undefined && cursor !== undefined) {
          const { entries } = await store.feed.read(cursor);
          expect(entries).toContainEqual(
            expect.objectContaining({
              kind: "consumers",
              effect: { usage: [["m1", "VCPU", "used", 1]], instances: [] },
            }),
          );
        }
      });

      it("reshapes a member's root that has no row yet: the member's inventories, its generation, the row created", async () => {
        const m1 = await store.createMember(newMember("m1", { inventories: { VCPU: inventory(4) } }));
        const uuid = memberProviderUuid("m1");
        const cursor = store.feed === undefined ? undefined : (await store.snapshot()).feedCursor;
        const reshapeTo = (expectedGeneration: number, vcpu: number) => ({
          inventories: [
            { provider: uuid, member: "m1", expectedGeneration, inventories: { VCPU: placed(vcpu) } },
          ],
          writes: [],
        });
        const stale = await expectEngineError(
          store.consumers.reshape(reshapeTo(m1.generation + 1, 8)),
          "conflict",
        );
        expect((stale.details as { reason?: string }).reason).toBe("generation");
        await store.consumers.reshape(reshapeTo(m1.generation, 8));
        const after = (await store.getMember("m1"))!;
        expect(after.inventories.VCPU).toMatchObject({ total: 8, source: "explicit" });
        expect(after.generation).toBe(m1.generation + 1);
        const row = (await store.providers.get({ name: uuid }))!;
        expect(row).toMatchObject({ name: "m1", parentUuid: null, inventories: {}, traits: [] });
        // Placement's moves of a reshape (interim and final inventories): two in all.
        expect(rootGeneration(after.generation, row.generation)).toBe(m1.generation + 2);
        if (store.feed !== undefined && cursor !== undefined) {
          const { entries } = await store.feed.read(cursor);
          expect(entries).toContainEqual(
            expect.objectContaining({ kind: "member", name: "m1", change: "updated" }),
          );
        }
      });

      it("writes a member's root in one transaction: inventories and traits on the member, aggregates on the row", async () => {
        const m1 = await store.createMember(
          newMember("m1", { inventories: { VCPU: inventory(4), DISK_GB: inventory(10) } }),
        );
        const uuid = memberProviderUuid("m1");
        await store.traits.create({ name: "CUSTOM_X", createdAt: "2026-01-01T00:00:00.000Z" });
        const inventories = await store.writeMemberRoot({
          member: "m1",
          expectedGeneration: m1.generation,
          change: { kind: "inventories", inventories: { VCPU: placed(6), DISK_GB: placed(10) } },
        });
        expect(inventories.member.inventories.VCPU).toMatchObject({ total: 6, source: "explicit" });
        expect(inventories.member.generation).toBe(m1.generation + 1);
        const stale = await expectEngineError(
          store.writeMemberRoot({
            member: "m1",
            expectedGeneration: m1.generation,
            change: { kind: "traits", traits: ["CUSTOM_X"] },
          }),
          "conflict",
        );
        expect((stale.details as { reason?: string }).reason).toBe("generation");
        const traits = await store.writeMemberRoot({
          member: "m1",
          expectedGeneration: m1.generation + 1,
          change: { kind: "traits", traits: ["CUSTOM_X", "HW_CPU_X86_AVX2"] },
        });
        expect(traits.member.traits.sort()).toEqual(["CUSTOM_X", "HW_CPU_X86_AVX2"]);
        expect(traits.member.generation).toBe(m1.generation + 2);
        const aggregates = await store.writeMemberRoot({
          member: "m1",
          expectedGeneration: m1.generation + 2,
          change: { kind: "aggregates", aggregates: ["a-1"] },
        });
        expect(aggregates.row).toMatchObject({ uuid, name: "m1", aggregates: ["a-1"], generation: 1 });
        expect(rootGeneration(aggregates.member.generation, aggregates.row?.generation)).toBe(
          m1.generation + 3,
        );
        // A consumer on the root and an instance on the member hold classes: neither can go.
        await store.consumers.claim([consumerOn("c1", uuid, 1)]);
        await store.claim({ create: [newInstance("i1", "m1", { DISK_GB: 2 })] });
        const expected = rootGeneration(
          (await store.getMember("m1"))!.generation,
          (await store.providers.get({ name: uuid }))!.generation,
        );
        const inUse = await expectEngineError(
          store.writeMemberRoot({
            member: "m1",
            expectedGeneration: expected,
            change: { kind: "inventories", inventories: {} },
          }),
          "conflict",
        );
        expect(inUse.details).toMatchObject({ reason: "inventory_in_use" });
        expect([...(inUse.details as { classes: string[] }).classes].sort()).toEqual(["DISK_GB", "VCPU"]);
        expect((await store.getMember("m1"))!.inventories.VCPU?.total).toBe(6);
        await expectEngineError(
          store.writeMemberRoot({ member: "nope", change: { kind: "aggregates", aggregates: [] } }),
          "not_found",
        );
      });

      it("refuses an LXD-side inventory change that drops a class the root's consumers hold", async () => {
        const m1 = await store.createMember(
          newMember("m1", { inventories: { VCPU: inventory(4), MEMORY_MB: inventory(64) } }),
        );
        await store.providers.create(rootOf("m1"));
        await store.consumers.claim([consumerOn("c1", memberProviderUuid("m1"), 1)]);
        await expectEngineError(
          store.setInventories("m1", { MEMORY_MB: inventory(64) }, m1.generation),
          "conflict",
        );
        const kept = await store.setInventories("m1", { VCPU: inventory(2) }, m1.generation);
        expect(Object.keys(kept.inventories)).toEqual(["VCPU"]);
      });

      it("keeps other providers' consumers out of a member's ledger", async () => {
        await store.createMember(newMember("m1", { inventories: { VCPU: inventory(4) } }));
        // Named like the member but not its root (another uuid): its own inventories count.
        await store.providers.create({
          ...rootOf("m1"),
          uuid: "other-uuid",
          rootUuid: "other-uuid",
          name: "x1",
          inventories: { VCPU: inventory(8) },
        });
        await store.consumers.claim([consumerOn("c1", "other-uuid", 8)]);
        await store.claim({ create: [newInstance("all", "m1", { VCPU: 4 })] });
        expect((await store.memberUsage(["m1"]))[0]?.used).toEqual({ VCPU: 4 });
      });
    });

    describe("claims", () => {
      it("creates instances with allocations and counts them in the snapshot", async () => {
        await addMember("a");
        const result = await store.claim({
          create: [
            newInstance("i1", "a", { VCPU: 2, MEMORY_MB: 1024 }),
            newInstance("r1", "a", { VCPU: 1 }, { forthcoming: true, type: "virtual-machine" }),
          ],
        });
        expect(result.instances.map((i) => i.name)).toEqual(["i1", "r1"]);
        expect(result.instances[0]!.revision).toBeGreaterThanOrEqual(1);
        expect(result.usage).toEqual([
          { member: "a", used: { VCPU: 2, MEMORY_MB: 1024 }, forthcoming: { VCPU: 1 } },
        ]);
        const snapshot = await store.snapshot();
        expect(snapshot.usage).toEqual(result.usage);
        expect(snapshot.instanceCounts).toEqual([
          {
            member: "a",
            project: "default",
            instances: 2,
            forthcoming: 1,
            containers: 1,
            virtualMachines: 1,
          },
        ]);
        expect((await store.getInstance("default", "i1"))?.allocations).toEqual(
          allocationsOf("a", { VCPU: 2, MEMORY_MB: 1024 }),
        );
        expect((await store.getInstanceById(result.instances[1]!.id))?.name).toBe("r1");
      });

      it("counts both ledgers against capacity and reports which class ran out", async () => {
        await addMember("a", { VCPU: inventory(4), MEMORY_MB: inventory(8192) });
        await store.claim({ create: [newInstance("r", "a", { VCPU: 3 }, { forthcoming: true })] });
        const error = await expectEngineError(
          store.claim({ create: [newInstance("i", "a", { VCPU: 2 })] }),
          "insufficient_capacity",
        );
        expect(error.details).toEqual({
          reason: "capacity",
          member: "a",
          resourceClass: "VCPU",
          requested: 2,
          used: 3,
          capacity: 4,
        });
        await store.claim({ create: [newInstance("i", "a", { VCPU: 1 })] });
      });

      it("applies reserved and allocation_ratio", async () => {
        await addMember("a", { VCPU: inventory(4, { reserved: 1, allocationRatio: 2 }) });
        await store.claim({ create: [newInstance("i1", "a", { VCPU: 6 })] });
        await expectEngineError(
          store.claim({ create: [newInstance("i2", "a", { VCPU: 1 })] }),
          "insufficient_capacity",
        );
      });

      it("enforces min_unit, max_unit and step_size as constraint failures", async () => {
        await addMember("a", { VCPU: inventory(64, { minUnit: 2, maxUnit: 16, stepSize: 2 }) });
        for (const amount of [1, 3, 18]) {
          const error = await expectEngineError(
            store.claim({ create: [newInstance(`i${amount}`, "a", { VCPU: amount })] }),
            "insufficient_capacity",
          );
          expect(reasonOf(error)).toBe("constraints");
        }
        await store.claim({ create: [newInstance("ok", "a", { VCPU: 4 })] });
      });

      it("fails for a class the member has no inventory of, or an unknown member", async () => {
        await addMember("a");
        const noInventory = await expectEngineError(
          store.claim({ create: [newInstance("i", "a", { DISK_GB: 1 })] }),
          "insufficient_capacity",
        );
        expect(reasonOf(noInventory)).toBe("no_inventory");
        const missing = await expectEngineError(
          store.claim({ create: [newInstance("i", "zz", { VCPU: 1 })] }),
          "conflict",
        );
        expect(reasonOf(missing)).toBe("member_missing");
      });

      it("is all-or-nothing: one failing instance leaves nothing behind", async () => {
        await addMember("a", { VCPU: inventory(4) });
        await addMember("b", { VCPU: inventory(4) });
        await expectEngineError(
          store.claim({
            create: [
              newInstance("i1", "a", { VCPU: 2 }),
              newInstance("i2", "b", { VCPU: 2 }),
              newInstance("i3", "a", { VCPU: 3 }),
            ],
          }),
          "insufficient_capacity",
        );
        expect(await store.listInstances()).toEqual([]);
        const snapshot = await store.snapshot();
        for (const usage of snapshot.usage) {
          expect(Object.values(usage.used).every((v) => v === 0)).toBe(true);
        }
      });

      it("lets one instance hold allocations on several members, each checked and counted", async () => {
        await addMember("a", { VCPU: inventory(8) });
        await addMember("b", { DISK_GB: inventory(10) });
        const spanning = newInstance(
          "x",
          "a",
          {},
          {
            allocations: [
              { member: "a", resourceClass: "VCPU", ledger: "used", amount: 2 },
              { member: "b", resourceClass: "DISK_GB", ledger: "forthcoming", amount: 6 },
            ],
          },
        );
        const created = await store.claim({ create: [spanning] });
        expect(created.usage).toEqual([
          { member: "a", used: { VCPU: 2 }, forthcoming: {} },
          { member: "b", used: {}, forthcoming: { DISK_GB: 6 } },
        ]);
        const full = await expectEngineError(
          store.claim({ create: [newInstance("y", "b", { DISK_GB: 5 })] }),
          "insufficient_capacity",
        );
        expect(full.details).toMatchObject({ reason: "capacity", member: "b", used: 6, capacity: 10 });
        const removed = await store.claim({ remove: [{ id: created.instances[0]!.id }] });
        expect(removed.usage).toEqual([
          { member: "a", used: {}, forthcoming: {} },
          { member: "b", used: {}, forthcoming: {} },
        ]);
      });

      it("refuses a claim breaking several rules with the same first refusal", async () => {
        await addMember("a", { VCPU: inventory(1) });
        await store.claim({ create: [newInstance("x", "a")] });
        // Name taken, project missing, member missing and capacity at once: the name is reported.
        const taken = await expectEngineError(
          store.claim({
            create: [newInstance("x", "a"), newInstance("y", "zz", { VCPU: 9 }, { project: "nope" })],
          }),
          "conflict",
        );
        expect(reasonOf(taken)).toBe("name_taken");
        const project = await expectEngineError(
          store.claim({ create: [newInstance("y", "zz", { VCPU: 9 }, { project: "nope" })] }),
          "not_found",
        );
        expect(project.message).toBe('Project "nope" not found');
        const member = await expectEngineError(
          store.claim({ create: [newInstance("y", "zz"), newInstance("z", "a", { VCPU: 9 })] }),
          "conflict",
        );
        expect(reasonOf(member)).toBe("member_missing");
      });

      it("refuses duplicate names within a project and duplicate ids", async () => {
        await addMember("a");
        await store.projects.create({ name: "p", description: "", config: {} });
        const first = newInstance("i", "a");
        await store.claim({ create: [first] });
        const dupName = await expectEngineError(store.claim({ create: [newInstance("i", "a")] }), "conflict");
        expect(reasonOf(dupName)).toBe("name_taken");
        const dupInBatch = await expectEngineError(
          store.claim({ create: [newInstance("j", "a"), newInstance("j", "a")] }),
          "conflict",
        );
        expect(reasonOf(dupInBatch)).toBe("name_taken");
        const dupId = await expectEngineError(
          store.claim({ create: [newInstance("k", "a", {}, { id: first.id })] }),
          "conflict",
        );
        expect(reasonOf(dupId)).toBe("id_taken");
        await store.claim({ create: [newInstance("i", "a", {}, { project: "p" })] });
      });

      it("replace checks the revision, moves allocations and re-checks only growth", async () => {
        await addMember("a", { VCPU: inventory(4) });
        await addMember("b", { VCPU: inventory(4) });
        const [reservation] = (
          await store.claim({ create: [newInstance("r", "a", { VCPU: 3 }, { forthcoming: true })] })
        ).instances;
        // Shrink a below usage: committing the reservation must still succeed.
        const a = (await store.getMember("a"))!;
        await store.setInventories("a", { VCPU: inventory(1) }, a.generation);
        const committed = await store.claim({
          replace: [
            {
              record: { ...reservation!, forthcoming: false, allocations: allocationsOf("a", { VCPU: 3 }) },
              expectedRevision: reservation!.revision,
            },
          ],
        });
        const instance = committed.instances[0]!;
        expect(instance.forthcoming).toBe(false);
        expect(instance.revision).toBeGreaterThan(reservation!.revision);
        expect(committed.usage).toEqual([{ member: "a", used: { VCPU: 3 }, forthcoming: {} }]);
        // Growing on the shrunk member fails.
        await expectEngineError(
          store.claim({
            replace: [
              {
                record: { ...instance, allocations: allocationsOf("a", { VCPU: 4 }) },
                expectedRevision: instance.revision,
              },
            ],
          }),
          "insufficient_capacity",
        );
        // A stale revision is a conflict.
        const stale = await expectEngineError(
          store.claim({
            replace: [{ record: { ...instance, description: "x" }, expectedRevision: reservation!.revision }],
          }),
          "conflict",
        );
        expect(reasonOf(stale)).toBe("revision");
        // Move to b.
        const moved = await store.claim({
          replace: [
            {
              record: {
                ...instance,
                location: "b",
                origin: "a",
                allocations: allocationsOf("b", { VCPU: 3 }),
              },
              expectedRevision: instance.revision,
            },
          ],
        });
        expect(moved.instances[0]!.location).toBe("b");
        const usage = await store.memberUsage(["a", "b"]);
        expect(usage).toEqual([
          { member: "a", used: {}, forthcoming: {} },
          { member: "b", used: { VCPU: 3 }, forthcoming: {} },
        ]);
      });

      it("refuses instances in a project that does not exist", async () => {
        await addMember("a");
        const error = await expectEngineError(
          store.claim({ create: [newInstance("i", "a", {}, { project: "nope" })] }),
          "not_found",
        );
        expect(error.message).toBe('Project "nope" not found');
        expect(await store.listInstances()).toEqual([]);
      });

      it("lets unnamed reservations coexist, addressed by id", async () => {
        await addMember("a");
        const created = await store.claim({
          create: [
            newInstance("", "a", { VCPU: 1 }, { forthcoming: true }),
            newInstance("", "a", { VCPU: 1 }, { forthcoming: true }),
          ],
        });
        expect(created.instances.map((i) => i.name)).toEqual(["", ""]);
        expect(await store.getInstance("default", "")).toBeUndefined();
        const first = created.instances[0]!;
        const named = await store.claim({
          replace: [{ record: { ...first, name: "web1" }, expectedRevision: first.revision }],
        });
        expect((await store.getInstance("default", "web1"))?.id).toBe(named.instances[0]!.id);
      });

      it("renames through replace and keeps names unique", async () => {
        await addMember("a");
        const created = await store.claim({ create: [newInstance("x", "a"), newInstance("y", "a")] });
        const x = created.instances[0]!;
        await expectEngineError(
          store.claim({ replace: [{ record: { ...x, name: "y" }, expectedRevision: x.revision }] }),
          "conflict",
        );
        await store.claim({ replace: [{ record: { ...x, name: "z" }, expectedRevision: x.revision }] });
        expect(await store.getInstance("default", "x")).toBeUndefined();
        expect((await store.getInstance("default", "z"))?.id).toBe(x.id);
      });

      it("keeps each instance's decision record through create, replace and every read", async () => {
        await addMember("a");
        await addMember("b");
        const decided = sampleDecision("a");
        const created = await store.claim({
          create: [newInstance("x", "a", {}, { decision: decided }), newInstance("y", "a")],
        });
        expect(created.instances[0]!.decision).toEqual(decided);
        expect(created.instances[1]!.decision).toBeNull();
        const x = created.instances[0]!;
        expect((await store.getInstance("default", "x"))?.decision).toEqual(decided);
        expect((await store.getInstanceById(x.id))?.decision).toEqual(decided);
        expect((await store.listInstances()).map((record) => record.decision)).toEqual([decided, null]);
        // A move writes the decision that moved it; a rename keeps the one it has.
        const moved = sampleDecision("b", { reason: "rebalance", decidedBy: "rebalance", candidates: null });
        const { revision: _revision, ...rest } = x;
        const replaced = await store.claim({
          replace: [
            {
              record: { ...rest, location: "b", allocations: [], decision: moved },
              expectedRevision: x.revision,
            },
          ],
        });
        expect(replaced.instances[0]!.decision).toEqual(moved);
        expect((await store.getInstance("default", "x"))?.decision).toEqual(moved);
      });

      it("remove frees allocations; removing an unknown id is a conflict", async () => {
        await addMember("a", { VCPU: inventory(2) });
        const created = await store.claim({ create: [newInstance("i", "a", { VCPU: 2 })] });
        await store.claim({ remove: [{ id: created.instances[0]!.id }] });
        await store.claim({ create: [newInstance("j", "a", { VCPU: 2 })] });
        const error = await expectEngineError(store.claim({ remove: [{ id: "missing" }] }), "conflict");
        expect(reasonOf(error)).toBe("instance_missing");
      });

      it("enforces project limits on growth only", async () => {
        await addMember("a", { VCPU: inventory(64) });
        const limits = { default: { instances: 2, cpu: 4 } };
        const usage = (cpu: number) => ({ cpu, memoryBytes: 0, diskBytes: 0 });
        await store.claim({
          create: [newInstance("i1", "a", { VCPU: 3 }, { limitsUsage: usage(3) })],
          projectLimits: limits,
        });
        const cpu = await expectEngineError(
          store.claim({
            create: [newInstance("i2", "a", { VCPU: 2 }, { limitsUsage: usage(2) })],
            projectLimits: limits,
          }),
          "insufficient_capacity",
        );
        expect(cpu.details).toEqual({
          reason: "project_limit",
          project: "default",
          limit: "cpu",
          value: 5,
          max: 4,
        });
        await store.claim({
          create: [newInstance("i2", "a", {}, { limitsUsage: usage(1) })],
          projectLimits: limits,
        });
        const count = await expectEngineError(
          store.claim({ create: [newInstance("i3", "a")], projectLimits: limits }),
          "insufficient_capacity",
        );
        expect(count.details).toMatchObject({ reason: "project_limit", limit: "instances" });
        const snapshot = await store.snapshot();
        expect(snapshot.projectUsage).toEqual([
          {
            project: "default",
            instances: 2,
            containers: 2,
            virtualMachines: 0,
            cpu: 4,
            memoryBytes: 0,
            diskBytes: 0,
          },
        ]);
      });

      it("never overcommits under many concurrent claims", async () => {
        await addMember("a", { VCPU: inventory(10) });
        const attempts = Array.from({ length: 40 }, (_, i) =>
          store.claim({ create: [newInstance(`c${i}`, "a", { VCPU: 1 })] }).then(
            () => "ok" as const,
            (error: unknown) => {
              if (error instanceof EngineError && error.kind === "insufficient_capacity")
                return "full" as const;
              throw error;
            },
          ),
        );
        const outcomes = await Promise.all(attempts);
        expect(outcomes.filter((o) => o === "ok").length).toBe(10);
        expect((await store.memberUsage(["a"]))[0]?.used.VCPU).toBe(10);
      });

      it("lists instances with filters", async () => {
        await addMember("a");
        await addMember("b");
        await store.projects.create({ name: "p", description: "", config: {} });
        await store.claim({
          create: [
            newInstance("i1", "a"),
            newInstance("i2", "b"),
            newInstance("i3", "a", {}, { project: "p", forthcoming: true }),
          ],
        });
        const names = async (filter: Parameters<Store["listInstances"]>[0]) =>
          (await store.listInstances(filter)).map((i) => i.name).sort();
        expect(await names(undefined)).toEqual(["i1", "i2", "i3"]);
        expect(await names({ location: "a" })).toEqual(["i1", "i3"]);
        expect(await names({ project: "p" })).toEqual(["i3"]);
        expect(await names({ forthcoming: false })).toEqual(["i1", "i2"]);
      });
    });

    describeGroupMembers(() => store);
    describeMirroredInstances(() => store);
    describeTreeClaims(() => store);
    describeProviderTraits(() => store);

    describe("config", () => {
      it("bumps the version on every change and deletes null keys", async () => {
        const initial = await store.getConfig();
        const next = await store.setConfig({ "cluster.offline_threshold": "20", "x.y": "1" });
        expect(next.version).toBeGreaterThan(initial.version);
        expect(await store.getConfigVersion()).toBe(next.version);
        const removed = await store.setConfig({ "x.y": null }, next.version);
        expect(removed.values).toEqual({ "cluster.offline_threshold": "20" });
        await expectEngineError(store.setConfig({ a: "b" }, next.version), "conflict");
        expect((await store.snapshot()).config).toEqual(removed);
      });
    });

    describe("leases (optional Store.acquireLease)", () => {
      it("one holder at a time; renewals keep it; it expires and can be taken over; release frees it", async () => {
        const acquire = store.acquireLease?.bind(store);
        const release = store.releaseLease?.bind(store);
        if (acquire === undefined || release === undefined) return;
        expect(await acquire("healer", "a", 60_000)).toBe(true);
        expect(await acquire("healer", "b", 60_000)).toBe(false);
        expect(await acquire("healer", "a", 60_000)).toBe(true);
        // Another lease name is independent.
        expect(await acquire("other", "b", 60_000)).toBe(true);
        await release("healer", "b"); // not b's: nothing happens
        expect(await acquire("healer", "b", 60_000)).toBe(false);
        await release("healer", "a");
        expect(await acquire("healer", "b", 50)).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 120));
        // b stopped renewing: its lease ran out.
        expect(await acquire("healer", "a", 60_000)).toBe(true);
        expect(await acquire("healer", "b", 60_000)).toBe(false);
      });
    });

    describe("change feed (optional Store.feed)", () => {
      it("gives every committed change exactly once, in order, and nothing for heartbeats or refusals", async () => {
        const feed = store.feed;
        // Optional in the port: a store without it is synced through the config version and tick().
        if (feed === undefined) return;
        let cursor = (await store.snapshot()).feedCursor!;
        expect(typeof cursor).toBe("string");
        const next = async () => {
          const read = await feed.read(cursor);
          expect(read.reset).toBeUndefined();
          cursor = read.cursor;
          return read.entries;
        };
        const member = await addMember("a");
        expect(await next()).toEqual([
          { kind: "member", name: "a", joinOrder: member.joinOrder, change: "created" },
        ]);
        await store.updateMember("a", { lastHeartbeat: "2026-01-01T00:00:05.000Z" });
        await store.updateMember("a", { state: { sysinfo: { load_averages: [0.1] } } });
        expect(await next()).toEqual([]);
        await store.updateMember("a", { description: "rack 1" });
        await store.setInventories("a", { VCPU: inventory(16) }, (await store.getMember("a"))!.generation);
        expect(await next()).toEqual([
          { kind: "member", name: "a", joinOrder: member.joinOrder, change: "updated" },
          { kind: "member", name: "a", joinOrder: member.joinOrder, change: "updated" },
        ]);
        await store.claim({ create: [newInstance("i1", "a", { VCPU: 2 })] });
        await expectEngineError(
          store.claim({ create: [newInstance("i2", "a", { VCPU: 99 })] }),
          "insufficient_capacity",
        );
        expect(await next()).toEqual([
          {
            kind: "claim",
            effect: {
              usage: [["a", "VCPU", "used", 2]],
              instances: [
                {
                  member: "a",
                  project: "default",
                  type: "container",
                  forthcoming: false,
                  placementGroup: null,
                  cpu: 0,
                  memoryBytes: 0,
                  diskBytes: 0,
                  count: 1,
                },
              ],
            },
          },
        ]);
        await store.groups.create({ name: "g", description: "" });
        await store.projects.create({ name: "p", description: "", config: {} });
        await store.setConfig({ "cluster.offline_threshold": "30" });
        await store.profiles.create({ project: "p", name: "web", description: "", config: {}, devices: {} });
        expect(await next()).toEqual([
          { kind: "catalog", table: "groups" },
          { kind: "catalog", table: "projects" },
          { kind: "config" },
          { kind: "catalog", table: "profiles" },
        ]);
        const i1 = (await store.getInstance("default", "i1"))!;
        await store.claim({ remove: [{ id: i1.id }] });
        await store.deleteMember("a");
        const entries = await next();
        expect(entries.map((entry) => entry.kind)).toEqual(["claim", "member"]);
        expect(entries[0]).toMatchObject({ effect: { usage: [["a", "VCPU", "used", -2]] } });
        expect(entries[1]).toEqual({
          kind: "member",
          name: "a",
          joinOrder: member.joinOrder,
          change: "deleted",
        });
        // Nothing new: nothing read.
        expect(await next()).toEqual([]);
      });

      it("tells its write listeners once per committed write what it appended, and nothing of heartbeats or refusals", async () => {
        const feed = store.feed;
        if (feed === undefined) return;
        // Required with a feed: engines learn of their own writes through it.
        expect(store.onCommittedWrite).toBeTypeOf("function");
        let cursor = (await store.snapshot()).feedCursor!;
        const told: (readonly ChangeEntry[])[] = [];
        const stop = store.onCommittedWrite!((entries) => told.push(entries));
        /** Runs `write`: listeners were told once, before its await returned, exactly the feed's entries of it. */
        const expectTold = async (write: () => Promise<unknown>, kinds: ChangeEntry["kind"][]) => {
          told.length = 0;
          await write();
          const read = await feed.read(cursor);
          cursor = read.cursor;
          expect(read.entries.map((entry) => entry.kind)).toEqual(kinds);
          expect(told).toEqual(kinds.length === 0 ? [] : [read.entries]);
        };
        await expectTold(() => addMember("a"), ["member"]);
        await expectTold(() => store.updateMember("a", { lastHeartbeat: "2026-01-01T00:00:05.000Z" }), []);
        await expectTold(() => store.updateMember("a", { state: { sysinfo: { load_averages: [0.1] } } }), []);
        await expectTold(() => store.updateMember("a", { description: "rack 1" }), ["member"]);
        const generation = (await store.getMember("a"))!.generation;
        await expectTold(() => store.setInventories("a", { VCPU: inventory(16) }, generation), ["member"]);
        await expectTold(() => store.claim({ create: [newInstance("i1", "a", { VCPU: 2 })] }), ["claim"]);
        // Refused: nothing committed, nothing told.
        await expectTold(
          () =>
            expectEngineError(
              store.claim({ create: [newInstance("i2", "a", { VCPU: 99 })] }),
              "insufficient_capacity",
            ),
          [],
        );
        await expectTold(
          () => store.claim({ memberStates: [{ member: "a", evacuated: true }] }),
          ["member", "claim"],
        );
        await expectTold(() => store.groups.create({ name: "g", description: "" }), ["catalog"]);
        await expectTold(() => store.groups.update({ name: "g", description: "rack" }), ["catalog"]);
        await expectTold(() => store.groups.delete({ name: "g" }), ["catalog"]);
        await expectTold(() => store.setConfig({ "cluster.offline_threshold": "30" }), ["config"]);
        await expectTold(
          () => store.resourceClasses.create({ name: "CUSTOM_FPGA", custom: true }),
          ["catalog"],
        );
        await expectTold(
          () => store.traits.create({ name: "CUSTOM_FAST", createdAt: "2026-01-01T00:00:00.000Z" }),
          ["catalog"],
        );
        const root = memberRootRow("a", "2026-01-01T00:00:00.000Z");
        await expectTold(() => store.providers.create(root), ["catalog"]);
        const consumer = {
          record: {
            uuid: "c1",
            projectId: "proj",
            userId: "user",
            consumerType: "INSTANCE",
            allocations: [{ member: root.uuid, resourceClass: "VCPU", ledger: "used" as const, amount: 1 }],
          },
        };
        await expectTold(() => store.consumers.claim([consumer]), ["consumers"]);
        const member = (await store.getMember("a"))!;
        const rootRow = (await store.providers.get({ name: root.uuid }))!;
        await expectTold(
          () =>
            store.writeMemberRoot({
              member: "a",
              expectedGeneration: rootGeneration(member.generation, rootRow.generation),
              change: { kind: "traits", traits: ["CUSTOM_FAST"] },
            }),
          ["member"],
        );
        stop();
        told.length = 0;
        await store.groups.create({ name: "h", description: "" });
        expect(told).toEqual([]);
      });

      it("a snapshot's cursor starts after everything the snapshot includes", async () => {
        const feed = store.feed;
        if (feed === undefined) return;
        await addMember("a");
        await store.claim({ create: [newInstance("i1", "a", { VCPU: 1 })] });
        const snapshot = await store.snapshot();
        expect((await feed.read(snapshot.feedCursor!)).entries).toEqual([]);
        await store.claim({ create: [newInstance("i2", "a", { VCPU: 1 })] });
        const after = await feed.read(snapshot.feedCursor!);
        expect(after.entries.map((entry) => entry.kind)).toEqual(["claim"]);
      });
    });
  });
}
