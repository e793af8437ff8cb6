import { describe, expect, it } from "vitest";
import { inventory } from "../testing/fixtures.js";
import { childrenFor, MemberTree, TreeHolds, type TreeProvider } from "./member-tree.js";

const fpga = (uuid: string, total: number, extra = {}): TreeProvider => ({
  uuid,
  inventories: { CUSTOM_FPGA: inventory(total, extra) },
});

function treeOf(providers: TreeProvider[], used: Record<string, Record<string, number>> = {}) {
  const holds = new TreeHolds();
  return { tree: new MemberTree(providers, (uuid) => used[uuid], holds), holds };
}

describe("a member's provider tree", () => {
  it("chooses the child with the most room left, then the lowest uuid", () => {
    const { tree } = treeOf([fpga("a", 2), fpga("b", 4), fpga("c", 4)], { b: { CUSTOM_FPGA: 1 } });
    expect(tree.choose("CUSTOM_FPGA", 1)).toEqual({ uuid: "c" });
    const tie = treeOf([fpga("b", 2), fpga("a", 2)].sort((x, y) => x.uuid.localeCompare(y.uuid)));
    expect(tie.tree.choose("CUSTOM_FPGA", 1)).toEqual({ uuid: "a" });
  });

  it("never splits a class: an amount no single child has room for is refused", () => {
    const { tree } = treeOf([fpga("a", 1), fpga("b", 1)]);
    const choice = tree.choose("CUSTOM_FPGA", 2);
    expect(choice).toMatchObject({ refusal: { kind: "exceeds-capacity", resource_class: "CUSTOM_FPGA" } });
  });

  it("counts in-flight holds and what consumers hold, and honours unit constraints", () => {
    const { tree, holds } = treeOf([fpga("a", 2), fpga("b", 2, { stepSize: 2 })], { a: { CUSTOM_FPGA: 1 } });
    // b's step size refuses 1; a has room for 1.
    expect(tree.choose("CUSTOM_FPGA", 1)).toEqual({ uuid: "a" });
    holds.add("a", "CUSTOM_FPGA", 1);
    expect(tree.choose("CUSTOM_FPGA", 1)).toMatchObject({ refusal: { kind: "exceeds-capacity" } });
    holds.add("a", "CUSTOM_FPGA", -1);
    expect(tree.consumed("a", "CUSTOM_FPGA")).toBe(1);
    expect(tree.choose("CUSTOM_GPU", 1)).toMatchObject({ refusal: { kind: "no-inventory" } });
  });

  it("sends only the classes the member lacks to its children, keeping those an instance holds", () => {
    const { tree } = treeOf([fpga("a", 1), fpga("b", 1)]);
    const member = { inventories: { VCPU: inventory(4) }, tree };
    expect(childrenFor(member, { VCPU: 1, CUSTOM_FPGA: 1 })).toEqual({ CUSTOM_FPGA: "a" });
    expect(childrenFor(member, { VCPU: 1, CUSTOM_FPGA: 1 }, new Map([["CUSTOM_FPGA", "b"]]))).toEqual({
      CUSTOM_FPGA: "b",
    });
    expect(childrenFor(member, { VCPU: 1 })).toBeUndefined();
    expect(childrenFor({ inventories: {}, tree: undefined }, { CUSTOM_FPGA: 1 })).toBeUndefined();
  });
});
