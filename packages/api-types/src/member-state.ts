import { z } from "zod";
import { goInt, goMap, goSlice, goStruct, goUint } from "./go-decoding.js";
import { UnsignedIntSchema } from "./primitives.js";

/*
 * A member's state report, decoded as LXD's Go clients decode it (go-decoding.ts): missing
 * fields are zero values, unknown fields are ignored; wrong types and negative sizes are
 * refused.
 */

/** Host counters (LXD `ClusterMemberSysInfo`); sizes in bytes, uptime in seconds. */
export const ClusterMemberSysInfoSchema = goStruct({
  uptime: goInt,
  load_averages: goSlice(z.number().min(0)),
  total_ram: goUint,
  free_ram: goUint,
  shared_ram: goUint,
  buffered_ram: goUint,
  total_swap: goUint,
  free_swap: goUint,
  processes: goUint,
  /** LXD >= 6.2 only; older members omit it (then VCPU is derived from the resources document only). */
  logical_cpus: UnsignedIntSchema.optional(),
});
export type ClusterMemberSysInfo = z.infer<typeof ClusterMemberSysInfoSchema>;

/** `used`/`total` pair of LXD `ResourcesStoragePool` (bytes for `space`, counts for `inodes`). */
export const UsedTotalSchema = goStruct({
  used: goUint,
  total: goUint,
});

/** One storage pool's usage (LXD `StoragePoolState`, its embedded struct flattened). */
export const StoragePoolStateSchema = goStruct({
  space: UsedTotalSchema,
  inodes: UsedTotalSchema,
});
export type StoragePoolState = z.infer<typeof StoragePoolStateSchema>;

/**
 * What `get_cluster_member_state()` returns and what `PUT .../state` (the heartbeat) reports
 * (LXD `ClusterMemberState`). `storage_pools.POOL.space.total` sizes the derived `DISK_GB`
 * inventory (the `default` pool, else the first); `sysinfo` sizes VCPU and MEMORY_MB when the
 * member sent no resources document.
 */
export const ClusterMemberStateSchema = z.object({
  sysinfo: ClusterMemberSysInfoSchema,
  storage_pools: goMap(StoragePoolStateSchema),
});
export type ClusterMemberState = z.infer<typeof ClusterMemberStateSchema>;
