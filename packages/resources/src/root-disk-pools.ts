import { type InstanceDevices, isRootDiskDevice } from "./instance.js";

/**
 * The storage pools instances' root disks use, as the profiles say: the
 * `pool` of every root disk device (LXD `shared.IsRootDiskDevice`) any
 * profile has, each named once, sorted (so a re-derivation that finds the
 * same pools finds them in the same order). Empty when no profile's root
 * disk names a pool (a cluster whose profiles have no root disk yet):
 * member-reported capacity then falls back to LXD's `default` pool
 * (reported-capacity.ts).
 *
 * Every profile counts, in every project, whether or not an instance uses
 * it now: the next instance may, and a pool counted only once an instance
 * used it would make the first such instance fail for lack of DISK_GB.
 */
export function rootDiskPools(profiles: Iterable<{ readonly devices: InstanceDevices }>): string[] {
  const pools = new Set<string>();
  for (const profile of profiles) {
    for (const device of Object.values(profile.devices)) {
      const pool = device.pool ?? "";
      if (isRootDiskDevice(device) && pool !== "") pools.add(pool);
    }
  }
  return [...pools].sort();
}
