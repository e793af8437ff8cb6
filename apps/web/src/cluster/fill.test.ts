import { describe, expect, it } from "vitest";
import { inventory, member } from "../testing/members.fixture.js";
import { classesOf, classFill, clusterFill, memberFill } from "./fill.js";

describe("fill per resource class", () => {
  it("splits capacity into used, held by reservations and free", () => {
    // 16 vCPU at ratio 4 = 64; 20 used, 12 reserved.
    expect(classFill(inventory(16, 20, 12, 4))).toEqual({
      capacity: 64,
      used: 20,
      forthcoming: 12,
      free: 32,
      allocationRatio: 4,
      fraction: 0.5,
    });
    expect(classFill(inventory(4, 6, 0)).free).toBe(0);
    expect(memberFill(member("m"), "VCPU")).toBeUndefined();
  });

  it("orders classes as the server lists them, unknown ones after by name", () => {
    const members = [
      member("a", { inventories: { MEMORY_MB: inventory(1024), CUSTOM_Z: inventory(1) } }),
      member("b", { inventories: { VCPU: inventory(4), CUSTOM_A: inventory(1) } }),
    ];
    expect(classesOf(members, ["VCPU", "MEMORY_MB", "DISK_GB"])).toEqual([
      "VCPU",
      "MEMORY_MB",
      "CUSTOM_A",
      "CUSTOM_Z",
    ]);
  });

  it("sums the cluster over online members only, with no ratio of its own", () => {
    const members = [
      member("a", { inventories: { VCPU: inventory(4, 2) } }),
      member("b", { inventories: { VCPU: inventory(8, 1, 1, 2) } }),
      member("c", { status: "Offline", inventories: { VCPU: inventory(100, 50) } }),
      member("d", { status: "Evacuated", inventories: { VCPU: inventory(100) } }),
    ];
    const fill = clusterFill(members, "VCPU");
    expect(fill).toMatchObject({ capacity: 20, used: 3, forthcoming: 1, free: 16, fraction: 0.2 });
    expect(Number.isNaN(fill.allocationRatio)).toBe(true);
  });
});
