import { describe, expect, it } from "vitest";
import type { Flavor } from "./flavor.js";
import type { InstanceDevices } from "./instance.js";
import { applyInstanceSizing, buildInstanceRequest, type InstanceRequestInput } from "./instance-request.js";
import { GiB, MiB } from "./sizes.js";

const devices: InstanceDevices = {
  root: { type: "disk", path: "/", pool: "default" },
  eth0: { type: "nic", network: "lxdbr0" },
};

function requestOf(input: InstanceRequestInput) {
  const result = buildInstanceRequest(input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const goldFlavor: Flavor = {
  vcpus: 24,
  memory_mb: 131072,
  disk_gb: 800,
  extra_specs: {
    "resources:CUSTOM_BAREMETAL_GOLD": "1",
    "resources:VCPU": "0",
    "resources:MEMORY_MB": "0",
    "resources:DISK_GB": "0",
  },
};

describe("buildInstanceRequest", () => {
  it("a VM with no limits asks for LXD's defaults: 1 VCPU, 1024 MEMORY_MB, 10 DISK_GB", () => {
    const result = requestOf({ type: "virtual-machine", config: {}, devices });
    expect(result.instance_resources).toEqual({
      cpu_cores: 1,
      memory_size: GiB,
      root_disk_size: 10 * GiB,
      resource_classes: { DISK_GB: 10, MEMORY_MB: 1024, VCPU: 1 },
    });
    expect(result.request.resources).toEqual({ DISK_GB: 10, MEMORY_MB: 1024, VCPU: 1 });
  });

  it("a container with no limits asks for nothing", () => {
    const result = requestOf({ type: "container", config: {}, devices });
    expect(result.request.resources).toEqual({});
    expect(result.request.groups).toEqual([]);
    expect(result.instance_resources.resource_classes).toEqual({});
  });

  it("rounds memory up to MiB and the root disk up to GiB", () => {
    const result = requestOf({
      type: "container",
      config: { "limits.cpu": "0-3,8", "limits.memory": "1GB" },
      devices: { root: { type: "disk", path: "/", size: "1500MB" } },
    });
    expect(result.instance_resources).toMatchObject({
      cpu_cores: 5,
      memory_size: 1e9,
      root_disk_size: 1.5e9,
    });
    expect(result.request.resources).toEqual({ DISK_GB: 2, MEMORY_MB: 954, VCPU: 5 });
  });

  it("an instance type fills what the config leaves unset", () => {
    const result = requestOf({ type: "container", config: {}, devices, instance_type: "c4-m8" });
    expect(result.expanded.config).toEqual({ "limits.cpu": "4", "limits.memory": "8192MiB" });
    expect(result.request.resources).toEqual({ MEMORY_MB: 8192, VCPU: 4 });
  });

  it("the instance's own config beats the instance type", () => {
    const result = requestOf({
      type: "container",
      config: { "limits.cpu": "2" },
      devices,
      instance_type: "c4-m8",
    });
    expect(result.request.resources).toEqual({ MEMORY_MB: 8192, VCPU: 2 });
  });

  it("a flavor sets limits.cpu, limits.memory and the root disk size", () => {
    const flavor: Flavor = { vcpus: 2, memory_mb: 4096, disk_gb: 40, extra_specs: {} };
    const result = requestOf({ type: "virtual-machine", config: {}, devices, flavor });
    expect(result.expanded.config).toEqual({ "limits.cpu": "2", "limits.memory": "4096MiB" });
    expect(result.expanded.devices.root).toEqual({ type: "disk", path: "/", pool: "default", size: "40GiB" });
    expect(result.instance_resources).toMatchObject({
      cpu_cores: 2,
      memory_size: 4096 * MiB,
      root_disk_size: 40 * GiB,
    });
    expect(result.request.resources).toEqual({ DISK_GB: 40, MEMORY_MB: 4096, VCPU: 2 });
  });

  it("instance config, then instance type, then flavor", () => {
    const flavor: Flavor = { vcpus: 8, memory_mb: 1024, disk_gb: 40, extra_specs: {} };
    const result = requestOf({
      type: "container",
      config: { "limits.memory": "2GiB" },
      devices: { root: { type: "disk", path: "/", size: "5GiB" } },
      instance_type: "c2",
      flavor,
    });
    expect(result.request.resources).toEqual({ DISK_GB: 5, MEMORY_MB: 2048, VCPU: 2 });
  });

  it("a flavor with disk_gb 0 asks no disk; without a root device its disk_gb still counts (Nova's root_gb)", () => {
    const noDisk: Flavor = { vcpus: 1, memory_mb: 512, disk_gb: 0, extra_specs: {} };
    expect(requestOf({ type: "container", config: {}, devices, flavor: noDisk }).request.resources).toEqual({
      MEMORY_MB: 512,
      VCPU: 1,
    });
    const withDisk: Flavor = { ...noDisk, disk_gb: 20 };
    expect(
      requestOf({ type: "container", config: {}, devices: {}, flavor: withDisk }).request.resources,
    ).toEqual({
      DISK_GB: 20,
      MEMORY_MB: 512,
      VCPU: 1,
    });
  });

  it("the ironic recipe: one gold node and nothing else, though the flavor still sizes the instance", () => {
    const result = requestOf({ type: "virtual-machine", config: {}, devices, flavor: goldFlavor });
    expect(result.request.resources).toEqual({ CUSTOM_BAREMETAL_GOLD: 1 });
    expect(result.instance_resources).toEqual({
      cpu_cores: 24,
      memory_size: 131072 * MiB,
      root_disk_size: 800 * GiB,
      resource_classes: { CUSTOM_BAREMETAL_GOLD: 1 },
    });
  });

  it("extra specs add custom classes and override standard ones", () => {
    const flavor: Flavor = {
      vcpus: 4,
      memory_mb: 8192,
      disk_gb: 0,
      extra_specs: {
        "resources:CUSTOM_FPGA_XILINX": "2",
        "resources:VCPU": "6",
        "trait:CUSTOM_SSD": "required",
      },
    };
    const result = requestOf({ type: "container", config: {}, devices, flavor });
    expect(result.request.resources).toEqual({ CUSTOM_FPGA_XILINX: 2, MEMORY_MB: 8192, VCPU: 6 });
    expect(result.request.required_traits).toEqual(["CUSTOM_SSD"]);
    expect(result.instance_resources.cpu_cores).toBe(4);
  });

  it("passes on each step's error", () => {
    expect(
      buildInstanceRequest({ type: "container", config: {}, devices, instance_type: "huge" }),
    ).toMatchObject({
      ok: false,
      error: { kind: "unknown-instance-type", message: "Provided instance type doesn't exist: huge" },
    });
    expect(
      buildInstanceRequest({ type: "container", config: { "limits.memory": "0%" }, devices }),
    ).toMatchObject({
      ok: false,
      error: {
        kind: "instance-resources",
        message: "Failed parsing instance resources limits.memory: Memory limit can't be 0%",
      },
    });
    const isolate: Flavor = {
      vcpus: 1,
      memory_mb: 1,
      disk_gb: 0,
      extra_specs: { "resources1:VGPU": "1", "resources2:VGPU": "1", group_policy: "isolate" },
    };
    expect(buildInstanceRequest({ type: "container", config: {}, devices, flavor: isolate })).toMatchObject({
      ok: false,
      error: { kind: "isolate-on-one-member" },
    });
  });

  it("Incus texts on request", () => {
    const result = buildInstanceRequest(
      { type: "container", config: { "limits.cpu": "x" }, devices },
      { dialect: "incus" },
    );
    expect(!result.ok && result.error.message).toMatch(
      /^Failed to calculate instance resource usage: Failed parsing/,
    );
  });
});

describe("applyInstanceSizing", () => {
  it("never modifies its input", () => {
    const config = { "limits.cpu": "" };
    const input: InstanceRequestInput = {
      type: "container",
      config,
      devices,
      instance_type: "c1-m1",
      flavor: { vcpus: 1, memory_mb: 1, disk_gb: 1, extra_specs: {} },
    };
    const result = applyInstanceSizing(input);
    expect(result.ok && result.value.config).toEqual({ "limits.cpu": "1", "limits.memory": "1024MiB" });
    expect(config).toEqual({ "limits.cpu": "" });
    expect(devices.root).toEqual({ type: "disk", path: "/", pool: "default" });
  });

  it("an empty instance type is no instance type", () => {
    expect(applyInstanceSizing({ type: "container", config: {}, devices, instance_type: "" })).toEqual({
      ok: true,
      value: { type: "container", config: {}, devices },
    });
  });
});
