import { describe, expect, it } from "vitest";
import { FIT_OK } from "./fit.js";
import { emptyUsage, fitsWithBothLedgers } from "./ledger.js";
import {
  buildRequest,
  type NovaFlavor,
  type ResourceRequest,
  requestFromNovaFlavor,
  toPlacementQuery,
} from "./resource-request.js";
import { inventories } from "./testing/inventories.fixture.js";

const baseFlavor: NovaFlavor = {
  vcpus: 1,
  memory_mb: 1024,
  root_gb: 10,
  ephemeral_gb: 5,
  swap: 0,
  extra_specs: {},
};

function requestOf(flavor: NovaFlavor, bootFromVolume = false): ResourceRequest {
  const result = requestFromNovaFlavor(flavor, { bootFromVolume });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function unsuffixed(request: ResourceRequest) {
  return request.groups.find((group) => group.suffix === "");
}

describe("Nova's worked examples (test_utils.py, reference section 4.2)", () => {
  it("vcpus=1, ram=1024, root=10, eph=5, swap=0, no specs -> {VCPU:1, MEMORY_MB:1024, DISK_GB:15}", () => {
    const request = requestOf(baseFlavor);
    expect(request.groups).toEqual([
      {
        suffix: "",
        resources: { DISK_GB: 15, MEMORY_MB: 1024, VCPU: 1 },
        required_traits: [],
        forbidden_traits: [],
      },
    ]);
    expect(request.resources).toEqual({ DISK_GB: 15, MEMORY_MB: 1024, VCPU: 1 });
  });

  it("+ resources:CUSTOM_TEST_CLASS=1 adds the custom class", () => {
    const request = requestOf({ ...baseFlavor, extra_specs: { "resources:CUSTOM_TEST_CLASS": "1" } });
    expect(unsuffixed(request)?.resources).toEqual({
      CUSTOM_TEST_CLASS: 1,
      DISK_GB: 15,
      MEMORY_MB: 1024,
      VCPU: 1,
    });
  });

  it("resources:VCPU=99, MEMORY_MB=99, DISK_GB=99 override", () => {
    const request = requestOf({
      ...baseFlavor,
      extra_specs: { "resources:VCPU": "99", "resources:MEMORY_MB": "99", "resources:DISK_GB": "99" },
    });
    expect(request.resources).toEqual({ DISK_GB: 99, MEMORY_MB: 99, VCPU: 99 });
  });

  it("resources:VCPU=0 and resources:DISK_GB=0 leave only MEMORY_MB", () => {
    const request = requestOf({
      ...baseFlavor,
      extra_specs: { "resources:VCPU": "0", "resources:DISK_GB": "0" },
    });
    expect(request.resources).toEqual({ MEMORY_MB: 1024 });
  });

  it("resources:DOESNT_EXIST=0 is warned about and ignored", () => {
    const request = requestOf({ ...baseFlavor, extra_specs: { "resources:DOESNT_EXIST": "0" } });
    expect(request.resources).toEqual({ DISK_GB: 15, MEMORY_MB: 1024, VCPU: 1 });
    expect(request.warnings).toEqual(["Received an invalid ResourceClass 'DOESNT_EXIST' in extra_specs."]);
  });

  it("root_gb=0, eph=0, swap=0 asks for no DISK_GB at all", () => {
    const request = requestOf({ ...baseFlavor, root_gb: 0, ephemeral_gb: 0 });
    expect(request.resources).toEqual({ MEMORY_MB: 1024, VCPU: 1 });
  });

  it("swap counts in whole GiB, rounded up; boot from volume drops root_gb", () => {
    expect(requestOf({ ...baseFlavor, swap: 1025 }).resources.DISK_GB).toBe(17);
    expect(requestOf({ ...baseFlavor, swap: 1024 }).resources.DISK_GB).toBe(16);
    expect(requestOf(baseFlavor, true).resources.DISK_GB).toBe(5);
  });

  it("trait:CUSTOM_FLAVOR_TRAIT=forbidden goes to the unsuffixed group's forbidden set", () => {
    const request = requestOf({ ...baseFlavor, extra_specs: { "trait:CUSTOM_FLAVOR_TRAIT": "forbidden" } });
    expect(unsuffixed(request)?.forbidden_traits).toEqual(["CUSTOM_FLAVOR_TRAIT"]);
    expect(request.forbidden_traits).toEqual(["CUSTOM_FLAVOR_TRAIT"]);
    expect(request.required_traits).toEqual([]);
  });

  it("the granular mix (test_get_resources_from_request_spec_granular)", () => {
    const request = requestOf({
      vcpus: 1,
      memory_mb: 1024,
      root_gb: 10,
      ephemeral_gb: 0,
      swap: 0,
      extra_specs: {
        "resources1:VGPU": "1",
        "resources1:VGPU_DISPLAY_HEAD": "2",
        "resources3:VCPU": "2",
        "resources42:SRIOV_NET_VF": "1",
        "resources24:SRIOV_NET_VF": "2",
        "some:bogus": "value",
        "resources:CUSTOM_THING": "123",
        "trait3:CUSTOM_SILVER": "required",
        "trait3:CUSTOM_GOLD": "required",
        "resources86:MEMORY_MB": "0",
        "resources:IPV4_ADDRESS": "0",
        "resources:CUSTOM_FOO": "0",
        "resources1:MEMORY_MB": "bogus",
        group_policy: "none",
      },
    });
    expect(request.groups).toEqual([
      {
        suffix: "",
        resources: { CUSTOM_THING: 123, DISK_GB: 10 },
        required_traits: [],
        forbidden_traits: [],
      },
      {
        suffix: "1",
        resources: { VGPU: 1, VGPU_DISPLAY_HEAD: 2 },
        required_traits: [],
        forbidden_traits: [],
      },
      { suffix: "24", resources: { SRIOV_NET_VF: 2 }, required_traits: [], forbidden_traits: [] },
      {
        suffix: "3",
        resources: { VCPU: 2 },
        required_traits: ["CUSTOM_GOLD", "CUSTOM_SILVER"],
        forbidden_traits: [],
      },
      { suffix: "42", resources: { SRIOV_NET_VF: 1 }, required_traits: [], forbidden_traits: [] },
    ]);
    expect(request.group_policy).toBe("none");
    expect(request.warnings).toEqual([
      "Resource amounts must be nonnegative integers. Received 'bogus' for key resources1.",
    ]);
    expect(toPlacementQuery(request, 1000)).toBe(
      "group_policy=none&limit=1000&required3=CUSTOM_GOLD,CUSTOM_SILVER&resources=CUSTOM_THING:123,DISK_GB:10" +
        "&resources1=VGPU:1,VGPU_DISPLAY_HEAD:2&resources24=SRIOV_NET_VF:2&resources3=VCPU:2&resources42=SRIOV_NET_VF:1",
    );
    // On one member every group lands together: amounts are summed.
    expect(request.resources).toEqual({
      CUSTOM_THING: 123,
      DISK_GB: 10,
      SRIOV_NET_VF: 3,
      VCPU: 2,
      VGPU: 1,
      VGPU_DISPLAY_HEAD: 2,
    });
    expect(request.required_traits).toEqual(["CUSTOM_GOLD", "CUSTOM_SILVER"]);
  });
});

describe("the ironic recipe (reference section 4.4)", () => {
  const goldFlavor: NovaFlavor = {
    vcpus: 24,
    memory_mb: 131072,
    root_gb: 800,
    ephemeral_gb: 0,
    swap: 0,
    extra_specs: {
      "resources:CUSTOM_BAREMETAL_GOLD": "1",
      "resources:VCPU": "0",
      "resources:MEMORY_MB": "0",
      "resources:DISK_GB": "0",
      "trait:HW_CPU_X86_VMX": "required",
    },
  };

  it("asks for exactly one gold node", () => {
    const request = requestOf(goldFlavor);
    expect(request.resources).toEqual({ CUSTOM_BAREMETAL_GOLD: 1 });
    expect(request.required_traits).toEqual(["HW_CPU_X86_VMX"]);
    expect(toPlacementQuery(request, 1000)).toBe(
      "limit=1000&required=HW_CPU_X86_VMX&resources=CUSTOM_BAREMETAL_GOLD:1",
    );
  });

  it("fills an ironic node (total 1, max_unit 1) with one instance, and a node in maintenance with none", () => {
    const node = inventories({ CUSTOM_BAREMETAL_GOLD: { total: 1, reserved: 0, max_unit: 1 } });
    const usage = emptyUsage();
    const request = requestOf(goldFlavor);
    expect(fitsWithBothLedgers(node, usage, request.resources)).toBe(FIT_OK);
    usage.used.CUSTOM_BAREMETAL_GOLD = 1;
    expect(fitsWithBothLedgers(node, usage, request.resources)).toMatchObject({
      ok: false,
      kind: "exceeds-capacity",
    });
    const maintenance = inventories({ CUSTOM_BAREMETAL_GOLD: { total: 1, reserved: 1, max_unit: 1 } });
    expect(fitsWithBothLedgers(maintenance, emptyUsage(), request.resources).ok).toBe(false);
  });

  it("does not fit a compute member that has no gold inventory", () => {
    const compute = inventories({
      VCPU: { total: 64 },
      MEMORY_MB: { total: 262144 },
      DISK_GB: { total: 4000 },
    });
    expect(fitsWithBothLedgers(compute, emptyUsage(), requestOf(goldFlavor).resources)).toMatchObject({
      ok: false,
      kind: "no-inventory",
      resource_class: "CUSTOM_BAREMETAL_GOLD",
    });
  });
});

describe("buildRequest: granular groups on one member", () => {
  const base = { VCPU: 2, MEMORY_MB: 2048, DISK_GB: 20 };

  it("PCPU in any group suppresses the base VCPU", () => {
    const request = buildRequest(base, { "resources1:PCPU": "2", group_policy: "none" });
    expect(request.ok && request.value.resources).toEqual({ DISK_GB: 20, MEMORY_MB: 2048, PCPU: 2 });
  });

  it("one suffixed group needs no policy", () => {
    const request = buildRequest(base, { "resources1:VGPU": "1" });
    expect(request.ok && request.value.resources).toEqual({ DISK_GB: 20, MEMORY_MB: 2048, VCPU: 2, VGPU: 1 });
  });

  it("isolate with one suffixed group is fine", () => {
    const request = buildRequest(base, { "resources1:VGPU": "1", group_policy: "isolate" });
    expect(request.ok).toBe(true);
  });

  it("two suffixed groups without a policy: Placement's 400 text", () => {
    expect(buildRequest(base, { "resources1:VGPU": "1", "resources2:VGPU": "1" })).toEqual({
      ok: false,
      error: {
        kind: "group-policy-required",
        message:
          'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
      },
    });
  });

  it("isolate with two suffixed groups can't be met by one member", () => {
    const result = buildRequest(base, {
      "resources1:VGPU": "1",
      "resources2:VGPU": "1",
      group_policy: "isolate",
    });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "isolate-on-one-member",
        suffixes: ["1", "2"],
        message:
          "group_policy=isolate asks for request groups 1, 2 on different providers, but an instance is placed on a single member, which can't satisfy that.",
      },
    });
  });

  it("a group stripped to nothing no longer counts towards the policy rule", () => {
    const result = buildRequest(base, { "resources1:VGPU": "1", "resources2:VGPU": "0" });
    expect(result.ok && result.value.groups.map((group) => group.suffix)).toEqual(["", "1"]);
  });

  it("a traits-only group survives zero stripping", () => {
    const result = buildRequest(base, { "resources1:VGPU": "0", "trait1:CUSTOM_FAST": "required" });
    expect(result.ok && result.value.groups[1]).toEqual({
      suffix: "1",
      resources: {},
      required_traits: ["CUSTOM_FAST"],
      forbidden_traits: [],
    });
    expect(result.ok && toPlacementQuery(result.value)).toBe(
      "required1=CUSTOM_FAST&resources=DISK_GB:20,MEMORY_MB:2048,VCPU:2",
    );
  });

  it("forbidden traits follow required ones in the query", () => {
    const result = buildRequest(base, { "trait:CUSTOM_A": "required", "trait:CUSTOM_B": "forbidden" });
    expect(result.ok && toPlacementQuery(result.value)).toBe(
      "required=CUSTOM_A,!CUSTOM_B&resources=DISK_GB:20,MEMORY_MB:2048,VCPU:2",
    );
  });

  it("a trait required by one group and forbidden by another can't be met by one member", () => {
    const result = buildRequest(base, {
      "trait1:CUSTOM_A": "required",
      "trait2:CUSTOM_A": "forbidden",
      "resources1:VGPU": "1",
      "resources2:VGPU": "1",
      group_policy: "none",
    });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "conflicting-traits",
        traits: ["CUSTOM_A"],
        message: "Conflicting required and forbidden traits found: CUSTOM_A",
      },
    });
  });

  it("merged groups are re-checked against max_unit (granular.yaml: VGPU max_unit 2)", () => {
    // Three one-VGPU groups land 3 VGPU on the member; cn_right's max_unit 2 excludes it, cn_left fits.
    const result = buildRequest(
      { VCPU: 0, MEMORY_MB: 0, DISK_GB: 0 },
      { "resources:VGPU": "1", "resources1:VGPU": "1", "resources2:VGPU": "1", group_policy: "none" },
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.resources).toEqual({ VGPU: 3 });
    const cnRight = inventories({ VGPU: { total: 8, max_unit: 2 } });
    const cnLeft = inventories({ VGPU: { total: 8 } });
    expect(fitsWithBothLedgers(cnRight, emptyUsage(), result.value.resources)).toMatchObject({
      ok: false,
      kind: "above-max-unit",
    });
    expect(fitsWithBothLedgers(cnLeft, emptyUsage(), result.value.resources)).toBe(FIT_OK);
  });

  it("amounts of the unsuffixed group and granular groups add up (granular.yaml: VCPU 6, MEMORY_MB 1536)", () => {
    const result = buildRequest(
      { VCPU: 0, MEMORY_MB: 0, DISK_GB: 0 },
      {
        "resources:VCPU": "3",
        "resources:MEMORY_MB": "512",
        "resources1:VCPU": "1",
        "resources1:MEMORY_MB": "1024",
        "resources2:VCPU": "2",
        group_policy: "none",
      },
    );
    expect(result.ok && result.value.resources).toEqual({ MEMORY_MB: 1536, VCPU: 6 });
  });
});
