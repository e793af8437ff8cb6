import { describe, expect, it } from "vitest";
import type { InstanceDevice, InstanceDevices } from "./instance.js";
import { rootDiskPools } from "./root-disk-pools.js";

const rootDisk = (pool?: string): InstanceDevice => ({
  type: "disk",
  path: "/",
  ...(pool === undefined ? {} : { pool }),
});

describe("rootDiskPools", () => {
  it("names each pool a profile's root disk uses once, sorted", () => {
    const profiles: { devices: InstanceDevices }[] = [
      { devices: { root: rootDisk("default"), eth0: { type: "nic", network: "lxdbr0" } } },
      { devices: { root: rootDisk("ssd") } },
      { devices: { disk: rootDisk("default") } },
    ];
    expect(rootDiskPools(profiles)).toEqual(["default", "ssd"]);
  });

  it("ignores disks that are not root disks and root disks that name no pool", () => {
    const profiles: { devices: InstanceDevices }[] = [
      { devices: { data: { type: "disk", path: "/srv", pool: "data" } } },
      { devices: { host: { type: "disk", path: "/", source: "/mnt", pool: "host" } } },
      { devices: { root: rootDisk() } },
      { devices: { root: rootDisk("") } },
      { devices: {} },
    ];
    expect(rootDiskPools(profiles)).toEqual([]);
  });
});
