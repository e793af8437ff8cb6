import { z } from "zod";
import { UnsignedIntSchema } from "./primitives.js";

/** Host counters (LXD `ClusterMemberSysInfo`); sizes in bytes, uptime in seconds. */
export const ClusterMemberSysInfoSchema = z.strictObject({
  uptime: z.number().int(),
  load_averages: z.array(z.number().min(0)).length(3),
  total_ram: UnsignedIntSchema,
  free_ram: UnsignedIntSchema,
  shared_ram: UnsignedIntSchema,
  buffered_ram: UnsignedIntSchema,
  total_swap: UnsignedIntSchema,
  free_swap: UnsignedIntSchema,
  processes: UnsignedIntSchema,
  /** LXD >= 6.2 only; older members omit it. */
  logical_cpus: UnsignedIntSchema.optional(),
});
export type ClusterMemberSysInfo = z.infer<typeof ClusterMemberSysInfoSchema>;

/** `used`/`total` pair of LXD `ResourcesStoragePool` (bytes for `space`, counts for `inodes`). */
export const UsedTotalSchema = z.strictObject({
  used: UnsignedIntSchema,
  total: UnsignedIntSchema,
});

/** One storage pool's usage (LXD `StoragePoolState`, its embedded struct flattened). */
export const StoragePoolStateSchema = z.strictObject({
  space: UsedTotalSchema,
  inodes: UsedTotalSchema,
});
export type StoragePoolState = z.infer<typeof StoragePoolStateSchema>;

/**
 * What `get_cluster_member_state()` returns and what `PUT .../state` (the heartbeat) reports
 * (LXD `ClusterMemberState`).
 */
export const ClusterMemberStateSchema = z.strictObject({
  sysinfo: ClusterMemberSysInfoSchema,
  storage_pools: z.record(z.string().min(1), StoragePoolStateSchema),
});
export type ClusterMemberState = z.infer<typeof ClusterMemberStateSchema>;
