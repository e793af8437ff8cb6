import { describe, expect, it } from "vitest";
import { FlavorPatchSchema, FlavorPutSchema, FlavorSchema, FlavorsPostSchema } from "./flavors.js";
import { ResourceClassesPostSchema, ResourceClassSchema } from "./resource-classes.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("resource classes", () => {
  it("lists standard and custom classes", () => {
    expect(parseBody(ResourceClassSchema, { name: "VCPU", standard: true }).ok).toBe(true);
    expect(parseBody(ResourceClassSchema, { name: "CUSTOM_FPGA_XILINX", standard: false }).ok).toBe(true);
  });

  it("leaves the CUSTOM_ name rule to the engine (one home, Placement's texts)", () => {
    expect(parseBody(ResourceClassesPostSchema, { name: "CUSTOM_BAREMETAL_GOLD" }).ok).toBe(true);
    // Shape only: the engine refuses these with validateCustomName's Placement texts.
    expect(parseBody(ResourceClassesPostSchema, { name: "VCPU" }).ok).toBe(true);
    expect(parseBody(ResourceClassesPostSchema, { name: `CUSTOM_${"A".repeat(249)}` }).ok).toBe(true);
    expect(errorOf(parseBody(ResourceClassesPostSchema, { name: 7 }))).toContain('Invalid field "name"');
    expect(errorOf(parseBody(ResourceClassesPostSchema, {}))).toContain('"name"');
  });
});

describe("flavors (seed 003: custom resource classes in flavor extra specs)", () => {
  const ironicGold = {
    name: "baremetal-gold",
    vcpus: 24,
    memory_mb: 131072,
    disk_gb: 1000,
    extra_specs: {
      "resources:CUSTOM_BAREMETAL_GOLD": "1",
      "resources:VCPU": "0",
      "resources:MEMORY_MB": "0",
      "resources:DISK_GB": "0",
    },
  };

  it("accepts the ironic recipe: one gold node, standard classes zeroed", () => {
    expect(parseBody(FlavorsPostSchema, ironicGold)).toEqual({ ok: true, value: ironicGold });
  });

  it("accepts the NFV FPGA flavor and granular specs", () => {
    const fpga = {
      name: "nfv.fpga",
      vcpus: 4,
      memory_mb: 8192,
      disk_gb: 40,
      extra_specs: { "resources:CUSTOM_FPGA_INTEL_ARRIA10_GZIP": "1", "trait:HW_CPU_X86_AVX2": "required" },
    };
    expect(parseBody(FlavorsPostSchema, fpga).ok).toBe(true);
    expect(
      parseBody(FlavorsPostSchema, { ...fpga, extra_specs: { "resources1:SRIOV_NET_VF": "2" } }).ok,
    ).toBe(true);
  });

  it("accepts stored flavors, PUT and PATCH bodies", () => {
    const stored = { ...ironicGold, description: "gold bare metal" };
    expect(parseBody(FlavorSchema, stored).ok).toBe(true);
    const { name: _name, ...put } = stored;
    expect(parseBody(FlavorPutSchema, put).ok).toBe(true);
    expect(parseBody(FlavorPatchSchema, { extra_specs: {} }).ok).toBe(true);
  });

  it("rejects Nova's impossible sizes, non-string specs and unknown fields", () => {
    expect(errorOf(parseBody(FlavorsPostSchema, { ...ironicGold, vcpus: 0 }))).toBe(
      'Invalid field "vcpus": must be at least 1',
    );
    expect(errorOf(parseBody(FlavorsPostSchema, { ...ironicGold, memory_mb: "8G" }))).toBe(
      'Invalid field "memory_mb": expected number, got string',
    );
    expect(
      errorOf(parseBody(FlavorsPostSchema, { ...ironicGold, extra_specs: { "resources:VCPU": 0 } })),
    ).toBe('Invalid field "extra_specs.resources:VCPU": expected string, got number');
    expect(errorOf(parseBody(FlavorsPostSchema, { ...ironicGold, ram: 1024 }))).toBe('Unknown field "ram"');
    expect(errorOf(parseBody(FlavorsPostSchema, { ...ironicGold, name: " gold" }))).toBe(
      'Invalid field "name": must be 1-255 characters of letters, digits, ".", "_", ":" and "-", starting with a letter or digit',
    );
  });
});
