import { describe, expect, it } from "vitest";
import type { ExpandedInstance, InstanceDevices, InstanceType } from "./instance.js";
import { findRootDiskDevice, isRootDiskDevice } from "./instance.js";
import { computeInstanceResources, LXD_VM_DEFAULTS } from "./instance-resources.js";
import { GiB, MiB } from "./sizes.js";

const rootDisk = (size?: string): InstanceDevices => ({
  root: { type: "disk", path: "/", pool: "default", ...(size === undefined ? {} : { size }) },
  eth0: { type: "nic", network: "lxdbr0", name: "eth0" },
});

function instance(
  type: InstanceType,
  config: Record<string, string>,
  devices: InstanceDevices,
): ExpandedInstance {
  return { type, config, devices };
}

function resourcesOf(input: ExpandedInstance) {
  const result = computeInstanceResources(input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("computeInstanceResources: the LXD clustering test", () => {
  it("limits.memory=512MiB, limits.cpu=1, root size=200MiB", () => {
    expect(
      resourcesOf(
        instance("container", { "limits.memory": "512MiB", "limits.cpu": "1" }, rootDisk("200MiB")),
      ),
    ).toEqual({ cpu_cores: 1, memory_size: 536870912, root_disk_size: 209715200 });
  });
});

describe("computeInstanceResources: defaults", () => {
  it.each([
    ["virtual-machine", rootDisk(), { cpu_cores: 1, memory_size: GiB, root_disk_size: 10 * GiB }],
    ["container", rootDisk(), { cpu_cores: 0, memory_size: 0, root_disk_size: 0 }],
    ["", rootDisk(), { cpu_cores: 0, memory_size: 0, root_disk_size: 0 }],
    ["virtual-machine", {}, { cpu_cores: 1, memory_size: GiB, root_disk_size: 0 }],
    ["container", {}, { cpu_cores: 0, memory_size: 0, root_disk_size: 0 }],
  ] as const)("%j with devices %j", (type, devices, expected) => {
    expect(resourcesOf(instance(type, {}, devices))).toEqual(expected);
  });

  it("empty values count as unset", () => {
    expect(
      resourcesOf(instance("virtual-machine", { "limits.cpu": "", "limits.memory": "" }, rootDisk(""))),
    ).toEqual({ cpu_cores: 1, memory_size: GiB, root_disk_size: 10 * GiB });
  });

  it("explicit values beat VM defaults", () => {
    expect(
      resourcesOf(
        instance("virtual-machine", { "limits.cpu": "0-3,8", "limits.memory": "4GB" }, rootDisk("20GiB")),
      ),
    ).toEqual({ cpu_cores: 5, memory_size: 4_000_000_000, root_disk_size: 20 * GiB });
  });

  it("takes other VM defaults (LXD >= 6.3 asks the pool driver, e.g. PowerFlex 8GiB)", () => {
    const result = computeInstanceResources(instance("virtual-machine", {}, rootDisk()), {
      vmDefaults: { ...LXD_VM_DEFAULTS, root_disk_size: "8GiB" },
    });
    expect(result).toEqual({ ok: true, value: { cpu_cores: 1, memory_size: GiB, root_disk_size: 8 * GiB } });
  });
});

describe("computeInstanceResources: the root disk", () => {
  it("is a disk at / without source", () => {
    expect(isRootDiskDevice({ type: "disk", path: "/", pool: "p" })).toBe(true);
    expect(isRootDiskDevice({ type: "disk", path: "/", source: "" })).toBe(true);
    expect(isRootDiskDevice({ type: "disk", path: "/", source: "/srv" })).toBe(false);
    expect(isRootDiskDevice({ type: "disk", path: "/data" })).toBe(false);
    expect(isRootDiskDevice({ type: "nic", path: "/" })).toBe(false);
  });

  it("a data disk's size does not count", () => {
    const devices: InstanceDevices = {
      ...rootDisk("5GiB"),
      data: { type: "disk", path: "/data", pool: "default", size: "100GiB" },
      host: { type: "disk", path: "/", source: "/srv/root", size: "1GiB" },
    };
    expect(resourcesOf(instance("container", {}, devices)).root_disk_size).toBe(5 * GiB);
  });

  it("two root disks are no root disk, as in LXD (GetRootDiskDevice fails and is ignored)", () => {
    const devices: InstanceDevices = {
      a: { type: "disk", path: "/", size: "5GiB" },
      b: { type: "disk", path: "/", size: "7GiB" },
    };
    expect(findRootDiskDevice(devices)).toBeUndefined();
    expect(resourcesOf(instance("virtual-machine", {}, devices)).root_disk_size).toBe(0);
  });

  it("finds the one root disk by name", () => {
    expect(findRootDiskDevice(rootDisk())).toBe("root");
    expect(findRootDiskDevice({})).toBeUndefined();
  });
});

describe("computeInstanceResources: LXD/Incus error texts", () => {
  it.each([
    [
      { "limits.cpu": "abc" },
      rootDisk(),
      "limits.cpu",
      'Failed parsing instance resources limits.cpu: Invalid cpuset value "abc": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    [
      { "limits.memory": "50%" },
      rootDisk(),
      "limits.memory",
      "Failed parsing instance resources limits.memory: Invalid value: 50%",
    ],
    [
      { "limits.memory": "1.5GiB" },
      rootDisk(),
      "limits.memory",
      "Failed parsing instance resources limits.memory: Invalid value: 1.5GiB",
    ],
    [
      {},
      rootDisk("big"),
      "root disk size",
      "Failed parsing instance resources root disk size: Invalid value: big",
    ],
    [
      {},
      rootDisk("99999999999999999999"),
      "root disk size",
      "Failed parsing instance resources root disk size: Invalid integer: 99999999999999999999",
    ],
  ] as const)("%j %j", (config, devices, field, message) => {
    const result = computeInstanceResources(instance("container", config, devices));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe("instance-resources");
    expect(result.error.field).toBe(field);
    expect(result.error.message).toBe(message);
  });

  it("Incus wraps the same text once more", () => {
    const result = computeInstanceResources(instance("container", { "limits.memory": "10%" }, {}), {
      dialect: "incus",
    });
    expect(!result.ok && result.error.message).toBe(
      "Failed to calculate instance resource usage: Failed parsing instance resources limits.memory: Invalid value: 10%",
    );
    expect(!result.ok && result.error.cause.kind).toBe("percentage-size");
  });

  it("a bad VM default is reported like a bad value", () => {
    const result = computeInstanceResources(instance("virtual-machine", {}, {}), {
      vmDefaults: { ...LXD_VM_DEFAULTS, memory: "lots" },
    });
    expect(!result.ok && result.error.message).toBe(
      "Failed parsing instance resources limits.memory: Invalid value: lots",
    );
  });

  it("memory is in bytes, MiB-exact sizes stay exact", () => {
    expect(resourcesOf(instance("container", { "limits.memory": "1536MiB" }, {})).memory_size).toBe(
      1536 * MiB,
    );
  });
});
