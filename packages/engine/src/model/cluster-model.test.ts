import { describe, expect, it } from "vitest";
import { defaultStack } from "../candidates/default-stack.js";
import { MemoryStore } from "../memory-store/memory-store.js";
import { inventory, newMember } from "../testing/fixtures.js";
import { ClusterModel } from "./cluster-model.js";

const { memberSignature } = defaultStack();

describe("ClusterModel", () => {
  it("keeps in-flight placements across a re-hydration and releases them exactly once", async () => {
    const store = new MemoryStore();
    await store.projects.create({ name: "default", description: "", config: {} });
    await store.createMember(newMember("a", { inventories: { VCPU: inventory(8) } }));
    const model = ClusterModel.fromSnapshot(await store.snapshot(), memberSignature);
    const pending = { member: "a", project: "default", resources: { VCPU: 2 }, placementGroup: null };
    model.addPending(pending);
    model.hydrate(await store.snapshot());
    expect(model.member("a")?.consumed("VCPU")).toBe(2);
    expect(model.instancesCount({ pending: true })).toBe(1);
    model.releasePending(pending);
    model.releasePending(pending);
    expect(model.member("a")?.consumed("VCPU")).toBe(0);
    expect(model.instancesCount({ pending: true })).toBe(0);
  });

  it("keeps join order when members register", async () => {
    const store = new MemoryStore();
    const model = ClusterModel.fromSnapshot(await store.snapshot(), memberSignature);
    for (const name of ["c", "a", "b"]) model.upsertMember(await store.createMember(newMember(name)));
    expect(model.allMembers().map((member) => member.name)).toEqual(["c", "a", "b"]);
  });
});
